import { useState } from 'react';
import {
  AppApiError,
  MCP_SERVER_TYPES,
  type McpServerInput,
  type McpServerType,
  type McpServerView,
  type McpTestResult,
  type SectionsView,
} from '@shared/ipc';
import { TEST_IDS } from '../../../test-ids';
import { mcpReach } from '@shared/mcp-reach';
import { useBridge } from '../../../store/StoreProvider';
import { usePageDirty } from '../use-settings-guard';
import { headerEdits, headerRowsOf, McpHeaderFields, type HeaderRow } from './McpHeaderFields';

interface ServerDraft {
  name: string;
  type: McpServerType;
  command: string;
  /** one argument per line (spaces inside an argument stay) */
  args: string;
  url: string;
  /** KEY=VALUE per line */
  env: string;
  timeout: string;
  /** sse, http: the headers (values write-only) */
  headers?: HeaderRow[];
}

const EMPTY: ServerDraft = {
  name: '',
  type: 'stdio',
  command: '',
  args: '',
  url: '',
  env: '',
  timeout: '',
  headers: [],
};

/** The server as config.toml would hold it, or what is wrong with the draft. */
export function serverFromDraft(
  draft: ServerDraft,
): { server: McpServerInput } | { error: string } {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(draft.name)) {
    return {
      error: 'The name must be 1-64 letters, digits, _ or - (it becomes [mcp.servers.NAME])',
    };
  }
  const env: Record<string, string> = {};
  for (const line of draft.env
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.indexOf('=');
    if (at <= 0) return { error: `Environment line "${line}" must look like KEY=VALUE` };
    env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  const timeout = draft.timeout.trim() === '' ? undefined : Number(draft.timeout);
  if (timeout !== undefined && !(timeout > 0 && timeout <= 3600)) {
    return { error: 'The timeout must be 1 to 3600 seconds' };
  }
  if (draft.type === 'stdio' && !draft.command.trim())
    return { error: 'A stdio server needs a command' };
  if (draft.type !== 'stdio' && !/^https?:\/\/\S+$/.test(draft.url.trim())) {
    return { error: `The ${draft.type} server needs an http(s) URL` };
  }
  const headers = draft.type === 'stdio' ? { headers: {} } : headerEdits(draft.headers ?? []);
  if ('error' in headers) return headers;
  const args = draft.args
    .split('\n')
    .map((a) => a.trim())
    .filter(Boolean);
  return {
    server: {
      type: draft.type,
      ...(draft.type === 'stdio'
        ? { command: draft.command.trim(), args }
        : { url: draft.url.trim() }),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(timeout !== undefined ? { timeout } : {}),
      ...(Object.keys(headers.headers).length > 0 ? { headers: headers.headers } : {}),
    },
  };
}

/** A saved server as the edit that keeps it as it is (header values stay where they are). */
function inputOf(server: McpServerView): McpServerInput {
  const { name: _name, headers, ...rest } = server;
  return {
    ...rest,
    ...(headers?.length
      ? { headers: Object.fromEntries(headers.map((h) => [h.name, { action: 'keep' as const }])) }
      : {}),
  };
}

function draftOf(server: McpServerView): ServerDraft {
  return {
    name: server.name,
    type: server.type,
    command: server.command ?? '',
    args: (server.args ?? []).join('\n'),
    url: server.url ?? '',
    env: Object.entries(server.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    timeout: server.timeout !== undefined ? String(server.timeout) : '',
    headers: headerRowsOf(server.headers),
  };
}

function ToolList({ result }: { result: McpTestResult }) {
  return (
    <div
      className={result.ok ? 'ok-text' : 'field-error'}
      role="status"
      data-testid={TEST_IDS.mcpTestResult}
      data-ok={result.ok}
    >
      {result.message}
      {result.tools.length > 0 && (
        <ul className="mcp-tools" data-testid={TEST_IDS.mcpTools}>
          {result.tools.map((tool) => (
            <li key={tool.name} data-tool={tool.name}>
              <span className="mono">{tool.name}</span>
              {tool.description && <span className="muted"> — {tool.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * `[mcp.servers.NAME]`: the configured servers (test, edit, remove) and a form to add
 * one. "Test" connects with the settings as typed and lists the tools the agents would
 * get; the mcp agent uses the only server, or the one `[mcp] agent_server` names.
 */
export function McpSettings({ mcp }: { mcp: SectionsView['mcp'] }) {
  const bridge = useBridge();
  const [draft, setDraft] = useState<ServerDraft>(EMPTY);
  const [isEditing, setEditing] = useState(false);
  const [test, setTest] = useState<{ name: string; result: McpTestResult } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    setStatus(null);
    try {
      await action();
    } catch (error) {
      const issues = error instanceof AppApiError ? (error.issues ?? []) : [];
      const detail = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      setStatus({ ok: false, message: detail || (error as Error).message });
    } finally {
      setBusy(null);
    }
  };
  const testServer = (name: string, server: McpServerInput) =>
    run(`test:${name}`, async () => {
      setTest({ name, result: await bridge.settings.testMcpServer(name, server) });
    });
  const parsed = serverFromDraft(draft);
  usePageDirty('mcp', isEditing || JSON.stringify(draft) !== JSON.stringify(EMPTY));
  const others = mcp.servers.map((s) => s.name);
  const reach = (name: string) =>
    mcpReach(
      name,
      others,
      mcp.agentServer,
      test?.name === name && test.result.ok ? test.result.tools.length : undefined,
    );
  const save = () =>
    run('save', async () => {
      if ('error' in parsed) throw new Error(parsed.error);
      await bridge.settings.saveSections({ mcp: { servers: { [draft.name]: parsed.server } } });
      setStatus({
        ok: true,
        message: `Saved [mcp.servers.${draft.name}]. ${isEditing ? 'The next run uses it.' : reach(draft.name)}`,
      });
      setDraft(EMPTY);
      setEditing(false);
    });
  const remove = (name: string) =>
    run(`remove:${name}`, async () => {
      await bridge.settings.saveSections({
        mcp: {
          servers: { [name]: null },
          ...(mcp.agentServer === name ? { agentServer: null } : {}),
        },
      });
      setStatus({ ok: true, message: `Removed [mcp.servers.${name}].` });
    });
  const field = (key: Exclude<keyof ServerDraft, 'headers'>) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
    'data-testid': `${TEST_IDS.mcpField}-${key}`,
  });

  return (
    <div className="config-page mcp-settings">
      <fieldset>
        <legend>[mcp.servers]</legend>
        {mcp.servers.length === 0 && (
          <p className="muted" data-testid={TEST_IDS.mcpEmpty}>
            No MCP server yet: the mcp agent cannot start until one is added.
          </p>
        )}
        <ul className="mcp-servers">
          {mcp.servers.map((server) => (
            <li key={server.name} data-testid={TEST_IDS.mcpServer} data-name={server.name}>
              <strong className="mono">{server.name}</strong>{' '}
              <span className="muted">
                {server.type}:{' '}
                {server.type === 'stdio'
                  ? [server.command, ...(server.args ?? [])].join(' ')
                  : server.url}
              </span>
              {mcp.servers.length > 1 && mcp.agentServer === server.name && (
                <span className="chip">mcp agent</span>
              )}{' '}
              <button
                type="button"
                className="link"
                disabled={busy !== null}
                onClick={() => void testServer(server.name, inputOf(server))}
              >
                {busy === `test:${server.name}` ? 'Testing…' : 'Test'}
              </button>{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  setDraft(draftOf(server));
                  setEditing(true);
                }}
              >
                Edit
              </button>{' '}
              {mcp.servers.length > 1 && mcp.agentServer !== server.name && (
                <>
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      void run('agent', () =>
                        bridge.settings.saveSections({ mcp: { agentServer: server.name } }),
                      )
                    }
                  >
                    Use for the mcp agent
                  </button>{' '}
                </>
              )}
              <button
                type="button"
                className="link danger-link"
                data-testid={TEST_IDS.mcpRemove}
                disabled={busy !== null}
                onClick={() => void remove(server.name)}
              >
                Remove
              </button>
              {test?.name === server.name && <ToolList result={test.result} />}
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend>{isEditing ? `Edit ${draft.name}` : 'Add a server'}</legend>
        <div className="mcp-form">
          <label>
            Name{' '}
            <input {...field('name')} disabled={isEditing} placeholder="files" spellCheck={false} />
          </label>
          <label>
            Type{' '}
            <select
              value={draft.type}
              data-testid={`${TEST_IDS.mcpField}-type`}
              onChange={(e) => setDraft({ ...draft, type: e.target.value as McpServerType })}
            >
              {MCP_SERVER_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t === 'http' ? 'http (streamable HTTP)' : t}
                </option>
              ))}
            </select>
          </label>
          {draft.type === 'stdio' ? (
            <>
              <label>
                Command{' '}
                <input
                  {...field('command')}
                  className="mono"
                  placeholder="npx"
                  spellCheck={false}
                />
              </label>
              <label>
                Arguments (one per line)
                <textarea {...field('args')} className="mono" rows={3} spellCheck={false} />
              </label>
            </>
          ) : (
            <label>
              URL{' '}
              <input
                {...field('url')}
                className="mono"
                placeholder="http://127.0.0.1:8000/mcp"
                spellCheck={false}
              />
            </label>
          )}
          {draft.type !== 'stdio' && (
            <McpHeaderFields
              rows={draft.headers ?? []}
              onChange={(headers) => setDraft({ ...draft, headers })}
            />
          )}
          <label>
            Environment (KEY=VALUE per line)
            <textarea {...field('env')} className="mono" rows={2} spellCheck={false} />
          </label>
          <label>
            Timeout per call (s) <input {...field('timeout')} placeholder="60" />
          </label>
        </div>
        {'error' in parsed && draft.name !== '' && <p className="field-error">{parsed.error}</p>}
        {'server' in parsed && !isEditing && (
          <p className="muted" data-testid={TEST_IDS.mcpReach}>
            Once added: {reach(draft.name)}
            {test?.name !== draft.name && ' Test lists its tools.'}
          </p>
        )}
        <div className="config-actions">
          <button
            type="button"
            data-testid={TEST_IDS.mcpSave}
            disabled={'error' in parsed || busy !== null}
            onClick={() => void save()}
          >
            {busy === 'save' ? 'Saving…' : isEditing ? 'Save server' : 'Add server'}
          </button>
          <button
            type="button"
            className="secondary"
            data-testid={TEST_IDS.mcpTest}
            disabled={'error' in parsed || busy !== null}
            onClick={() => 'server' in parsed && void testServer(draft.name, parsed.server)}
          >
            {busy === `test:${draft.name}` ? 'Testing…' : 'Test (lists its tools)'}
          </button>
          {isEditing && (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setDraft(EMPTY);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          )}
          {status && (
            <span
              className={status.ok ? 'ok-text' : 'field-error'}
              role={status.ok ? 'status' : 'alert'}
              data-testid={TEST_IDS.settingsStatus}
            >
              {status.message}
            </span>
          )}
        </div>
        {test && !mcp.servers.some((s) => s.name === test.name) && (
          <ToolList result={test.result} />
        )}
      </fieldset>
    </div>
  );
}
