/**
 * The mcp agent's prompt picker in the New run form: lists the configured MCP servers'
 * prompts (`mcp:prompts`, one request per server so each shows its own progress and
 * error: connecting can be slow or fail), picks one and fills its arguments (required
 * ones marked). The run then starts with `prompt`: the prompt's messages are its task.
 */
import { useEffect, useState } from 'react';
import type { McpPromptChoice, McpPromptInfo } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';

type ServerState =
  | { status: 'listing' }
  | { status: 'done'; prompts: McpPromptInfo[] }
  | { status: 'failed'; error: string };

const keyOf = (server: string, name: string) => `${server}/${name}`;

/** Required arguments left empty, by name. */
export function missingArguments(prompt: McpPromptInfo, values: Record<string, string>): string[] {
  return prompt.arguments.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
}

export function PromptPicker({
  servers,
  value,
  onChange,
}: {
  /** the configured servers' names */
  servers: readonly string[];
  /** the chosen prompt with its arguments, or null */
  value: (McpPromptChoice & { info: McpPromptInfo }) | null;
  onChange: (value: (McpPromptChoice & { info: McpPromptInfo }) | null) => void;
}) {
  const bridge = useBridge();
  const [states, setStates] = useState<Record<string, ServerState>>({});
  const serversKey = servers.join('\u0000');
  useEffect(() => {
    let isCurrent = true;
    const names = serversKey ? serversKey.split('\u0000') : [];
    // (a server without a state yet is listing; the form remounts this on a new server list)
    for (const server of names) {
      bridge.settings.listMcpPrompts(server).then(
        (listed) => {
          if (!isCurrent) return;
          setStates((s) => ({
            ...s,
            [server]: listed.error
              ? { status: 'failed', error: listed.error }
              : { status: 'done', prompts: listed.prompts },
          }));
        },
        (error: unknown) => {
          if (isCurrent)
            setStates((s) => ({
              ...s,
              [server]: { status: 'failed', error: (error as Error).message },
            }));
        },
      );
    }
    return () => {
      isCurrent = false;
    };
  }, [bridge, serversKey]);

  const choices = servers.flatMap((server) => {
    const state = states[server];
    return state?.status === 'done' ? state.prompts.map((info) => ({ server, info })) : [];
  });
  const pick = (key: string) => {
    const found = choices.find((c) => keyOf(c.server, c.info.name) === key);
    onChange(
      found
        ? { server: found.server, name: found.info.name, arguments: {}, info: found.info }
        : null,
    );
  };
  const setArgument = (name: string, text: string) => {
    if (!value) return;
    const args = { ...value.arguments };
    if (text === '') delete args[name];
    else args[name] = text;
    onChange({ ...value, arguments: args });
  };

  return (
    <div className="prompt-picker" data-testid={TEST_IDS.promptPicker}>
      {servers.length === 0 && (
        <p className="muted">No MCP server is configured: add one in Settings → MCP servers.</p>
      )}
      <ul className="plain-list">
        {servers.map((server) => {
          const state = states[server] ?? { status: 'listing' };
          return (
            <li
              key={server}
              data-testid={TEST_IDS.promptServer}
              data-server={server}
              data-status={state.status}
              className={state.status === 'failed' ? 'field-error' : 'muted'}
            >
              <span className="mono">{server}</span>:{' '}
              {state.status === 'listing'
                ? 'connecting and listing its prompts…'
                : state.status === 'failed'
                  ? state.error
                  : state.prompts.length === 0
                    ? 'no prompts'
                    : `${state.prompts.length} prompt${state.prompts.length === 1 ? '' : 's'}`}
            </li>
          );
        })}
      </ul>
      <label>
        Prompt{' '}
        <select
          data-testid={TEST_IDS.promptSelect}
          value={value ? keyOf(value.server, value.name) : ''}
          disabled={choices.length === 0}
          onChange={(e) => pick(e.target.value)}
        >
          <option value="">
            {choices.length === 0 ? '(none listed yet)' : 'Choose a prompt…'}
          </option>
          {choices.map(({ server, info }) => (
            <option key={keyOf(server, info.name)} value={keyOf(server, info.name)}>
              {keyOf(server, info.name)}
              {info.title ? ` — ${info.title}` : ''}
            </option>
          ))}
        </select>
      </label>
      {value?.info.description && <p className="muted">{value.info.description}</p>}
      {value && value.info.arguments.length > 0 && (
        <div className="elicit-fields">
          {value.info.arguments.map((arg) => (
            <div className="elicit-field" key={arg.name}>
              <label htmlFor={`prompt-arg-${arg.name}`}>
                {arg.name}
                {arg.required && (
                  <span className="required-mark" title="required" aria-label="required">
                    {' '}
                    *
                  </span>
                )}
              </label>
              <input
                id={`prompt-arg-${arg.name}`}
                data-testid={TEST_IDS.promptArg}
                data-arg={arg.name}
                data-required={arg.required}
                aria-required={arg.required}
                value={value.arguments[arg.name] ?? ''}
                onChange={(e) => setArgument(arg.name, e.target.value)}
              />
              {arg.description && <span className="muted elicit-help">{arg.description}</span>}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
