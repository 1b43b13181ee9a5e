/**
 * The fields of the [sandbox], [browser] and [telemetry] settings pages, with the same checks the
 * main process's config schema makes (it validates again on save and has the last word).
 */
import type { BrowserSectionKey, SandboxSectionKey, TelemetrySectionKey } from '@shared/ipc';

export interface SectionFieldSpec {
  key: SandboxSectionKey | BrowserSectionKey | TelemetrySectionKey;
  label: string;
  kind: 'text' | 'int' | 'number' | 'bool' | 'size';
  min?: number;
  max?: number;
  help: string;
}

export const SANDBOX_FIELDS: readonly SectionFieldSpec[] = [
  {
    key: 'image',
    label: 'Image',
    kind: 'text',
    help: 'The Docker image the sandbox runs. Offline, pick one this machine has (listed below), or build agent-workbench/sandbox:local with scripts/setup-system.sh.',
  },
  {
    key: 'use_sandbox',
    label: 'Use the sandbox',
    kind: 'bool',
    help: 'Off turns the code and shell tools off (they never run on this machine directly).',
  },
  {
    key: 'network_enabled',
    label: 'Network',
    kind: 'bool',
    help: 'Let commands in the sandbox reach the network (off: pip install and curl fail).',
  },
  {
    key: 'memory_limit',
    label: 'Memory',
    kind: 'size',
    help: 'Memory (and memory+swap), e.g. 512m or 2g.',
  },
  {
    key: 'cpu_limit',
    label: 'CPUs',
    kind: 'number',
    min: 0.01,
    max: 256,
    help: 'CPUs the sandbox may use.',
  },
  {
    key: 'pids_limit',
    label: 'Processes',
    kind: 'int',
    min: 16,
    max: 65536,
    help: 'Most processes at once (a fork bomb stops here).',
  },
  {
    key: 'timeout',
    label: 'Command timeout (s)',
    kind: 'number',
    min: 1,
    max: 86400,
    help: 'Seconds a command may run before it is stopped.',
  },
  {
    key: 'workspace_limit',
    label: 'Workspace limit',
    kind: 'size',
    help: 'Largest size of the workspace folder, e.g. 2g; past it the command is stopped and the run ends.',
  },
];

export const BROWSER_FIELDS: readonly SectionFieldSpec[] = [
  { key: 'headless', label: 'Headless', kind: 'bool', help: 'Run the browser without a window.' },
  {
    key: 'executable_path',
    label: 'Chromium path',
    kind: 'text',
    help: 'Empty: WORKBENCH_CHROMIUM, else the system Chromium or Chrome.',
  },
  {
    key: 'max_content_length',
    label: 'Page text',
    kind: 'int',
    min: 100,
    max: 1_000_000,
    help: 'Characters of page text extract_content gives the model.',
  },
  {
    key: 'keep_screenshots',
    label: 'Screenshots kept',
    kind: 'int',
    min: 0,
    max: 20,
    help: 'Screenshots kept in memory (older ones become a note); 0 takes none.',
  },
];

export const TELEMETRY_FIELDS: readonly SectionFieldSpec[] = [
  {
    key: 'otlp_endpoint',
    label: 'Live export to',
    kind: 'text',
    help: 'An OTLP/HTTP receiver (http://localhost:4318, or its /v1/traces URL): every run is sent there as spans while it runs. Empty: nothing is sent. Read at start (restart to apply); failures show in the top bar and never affect a run.',
  },
  {
    key: 'receiver_port',
    label: 'Receiver port',
    kind: 'int',
    min: 0,
    max: 65535,
    help: 'Take OTLP traces from other tools on http://127.0.0.1:PORT/v1/traces (4318 is the usual one); each trace becomes a read-only run. 0: none. Read at start.',
  },
];

export type SectionRaw = string | boolean;

/** The typed value of a field as typed, or what is wrong with it. */
export function parseSectionValue(
  spec: SectionFieldSpec,
  raw: SectionRaw,
): { value: string | number | boolean } | { error: string } {
  if (spec.kind === 'bool') return { value: raw === true };
  const text = String(raw).trim();
  if (spec.kind === 'text') {
    if (spec.key === 'image' && text === '') return { error: 'must name an image' };
    if (spec.key === 'otlp_endpoint' && text !== '' && !/^https?:\/\/\S+$/.test(text)) {
      return { error: 'must be an http:// or https:// URL (or empty: no export)' };
    }
    return { value: text };
  }
  if (spec.kind === 'size') {
    return /^\d+(\.\d+)?[kmg]?$/i.test(text)
      ? { value: text }
      : { error: 'must look like 512m or 2g' };
  }
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) return { error: 'must be a number' };
  if (spec.kind === 'int' && !Number.isInteger(n)) return { error: 'must be a whole number' };
  if (spec.min !== undefined && n < spec.min) return { error: `must be at least ${spec.min}` };
  if (spec.max !== undefined && n > spec.max) return { error: `must be at most ${spec.max}` };
  return { value: n };
}
