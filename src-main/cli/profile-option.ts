/**
 * `--profile NAME` of `run` and `batch`: a model profile for this run only (`default` is
 * `[llm]`), checked before anything starts so a typo is one line and exit 2, naming the
 * profiles there are (issue 25 item 3: the GUI's New run picks one; the CLI does too).
 */
import type { WorkbenchConfig } from '../runtime/config/schema';
import { UsageError } from './usage-error';

export function checkProfileName(config: WorkbenchConfig, profile: string): void {
  if (profile === 'default' || config.llm.profiles[profile]) return;
  const known = ['default', ...Object.keys(config.llm.profiles)].join(', ');
  throw new UsageError(`--profile ${profile}: no [llm.${profile}] in the config (${known})`);
}
