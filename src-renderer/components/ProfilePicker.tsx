/**
 * Picking model profiles from the list Settings keeps (issue 25 item 3): one for a new
 * run (ProfileSelect), several for a batch's columns (ProfileChecks). Each option names
 * the model it runs, so nobody types a profile name from memory.
 */
import { DEFAULT_PROFILE, type ProfileView } from '@shared/ipc';
import { runModelOf } from '@shared/run-model';
import { TEST_IDS } from '../test-ids';

const title = (p: ProfileView) => (p.name === DEFAULT_PROFILE ? '[llm] default' : p.name);
const modelOf = (p: ProfileView) => runModelOf(p).label;

/** '' is the agent's own profile. */
export function ProfileSelect({
  profiles,
  value,
  ownLabel,
  testId = TEST_IDS.runProfile,
  onChange,
}: {
  profiles: readonly ProfileView[];
  value: string;
  /** what the agent's own choice is, e.g. "swe's own: fast (gpt-4o-mini)" */
  ownLabel: string;
  testId?: string;
  onChange(value: string): void;
}) {
  return (
    <label>
      Profile{' '}
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{ownLabel}</option>
        {profiles.map((p) => (
          <option key={p.name} value={p.name}>
            {title(p)}: {modelOf(p)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** None checked: one column with the agent's own profile. */
export function ProfileChecks({
  profiles,
  chosen,
  onChange,
}: {
  profiles: readonly ProfileView[];
  chosen: readonly string[];
  onChange(chosen: string[]): void;
}) {
  return (
    <fieldset className="profile-checks">
      <legend>Profiles (one column each; none: the agent&apos;s own)</legend>
      {profiles.map((p) => (
        <label key={p.name}>
          <input
            type="checkbox"
            data-testid={`${TEST_IDS.batchProfile}-${p.name}`}
            checked={chosen.includes(p.name)}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? profiles.map((q) => q.name).filter((n) => n === p.name || chosen.includes(n))
                  : chosen.filter((n) => n !== p.name),
              )
            }
          />{' '}
          {title(p)} <span className="muted">({modelOf(p)})</span>
        </label>
      ))}
    </fieldset>
  );
}
