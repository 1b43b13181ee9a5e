import type { AgentDefinitionRunSettings } from '@shared/domain/agent-definition';
import { CONFIG_TEXT_REPLY_POLICIES, CONFIG_TOOL_CHOICES } from '@shared/ipc';

const NUMBERS = [
  ['max_steps', 'Max steps'],
  ['duplicate_threshold', 'Duplicate threshold'],
  ['max_messages', 'Memory window (messages)'],
  ['max_observe', 'Max observation (characters)'],
] as const;
const LISTS = [
  ['breakpoints', 'Breakpoints', 'tool:bash:rm *, stuck'],
  ['approve_tools', 'Approve before running', 'bash, str_replace_editor'],
] as const;

/** `[run]`: the limits and run settings; a blank field takes `[agent]`, else the default. */
export function RunSettingsFields({
  run,
  errorsOf,
  isReadOnly,
  onChange,
}: {
  run: AgentDefinitionRunSettings;
  errorsOf(path: string): string[];
  isReadOnly: boolean;
  onChange(run: AgentDefinitionRunSettings): void;
}) {
  const set = <K extends keyof AgentDefinitionRunSettings>(
    key: K,
    value: AgentDefinitionRunSettings[K] | undefined,
  ) => {
    const next = { ...run };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const errors = (key: string) =>
    errorsOf(`run.${key}`).map((m) => (
      <span key={m} className="field-error" role="alert">
        {m}
      </span>
    ));
  return (
    <fieldset className="agent-run-settings">
      <legend>
        Limits and run settings ([run]; blank: [agent] in config.toml, else the default)
      </legend>
      {NUMBERS.map(([key, label]) => (
        <label key={key}>
          {label}
          <input
            type="number"
            data-testid={`agent-run-${key}`}
            disabled={isReadOnly}
            value={run[key] ?? ''}
            onChange={(e) => set(key, e.target.value === '' ? undefined : Number(e.target.value))}
          />
          {errors(key)}
        </label>
      ))}
      <label>
        Tool choice
        <select
          disabled={isReadOnly}
          value={run.tool_choice ?? ''}
          onChange={(e) =>
            set('tool_choice', (e.target.value || undefined) as typeof run.tool_choice)
          }
        >
          <option value="">(inherited)</option>
          {CONFIG_TOOL_CHOICES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        {errors('tool_choice')}
      </label>
      <label>
        A reply without a tool call
        <select
          disabled={isReadOnly}
          value={run.text_reply_policy ?? ''}
          onChange={(e) =>
            set('text_reply_policy', (e.target.value || undefined) as typeof run.text_reply_policy)
          }
        >
          <option value="">(inherited)</option>
          {CONFIG_TEXT_REPLY_POLICIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        {errors('text_reply_policy')}
      </label>
      {LISTS.map(([key, label, placeholder]) => (
        <label key={key}>
          {label}
          <input
            disabled={isReadOnly}
            placeholder={placeholder}
            value={(run[key] ?? []).join(', ')}
            onChange={(e) => {
              const items = e.target.value
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean);
              set(key, items.length > 0 ? items : undefined);
            }}
          />
          {errors(key)}
        </label>
      ))}
    </fieldset>
  );
}
