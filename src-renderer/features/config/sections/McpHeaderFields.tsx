/**
 * The HTTP headers of an sse/http server in Settings → MCP. A value is write-only, like
 * an API key: a saved header shows only that it is set (or the variable it is read
 * from); leaving its value empty keeps it, typing replaces it, `env:NAME` reads it from
 * the environment. Values go to the secret store, never config.toml.
 */
import { headerNameProblem, type McpHeaderEdit, type McpHeaderView } from '@shared/mcp-headers';
import { TEST_IDS } from '../../../test-ids';

export interface HeaderRow {
  name: string;
  /** typed now; '' keeps a saved value */
  value: string;
  /** a value is saved for this name (the view said so) */
  isSaved: boolean;
  env?: string;
}

export function headerRowsOf(headers: McpHeaderView[] | undefined): HeaderRow[] {
  return (headers ?? []).map((h) => ({
    name: h.name,
    value: '',
    isSaved: h.isSet || h.env !== undefined,
    ...(h.env !== undefined ? { env: h.env } : {}),
  }));
}

/** The rows as edits, or what is wrong with them. */
export function headerEdits(
  rows: HeaderRow[],
): { headers: Record<string, McpHeaderEdit> } | { error: string } {
  const headers: Record<string, McpHeaderEdit> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    const problem = headerNameProblem(name);
    if (problem) return { error: `Header ${problem}` };
    if (Object.keys(headers).some((n) => n.toLowerCase() === name.toLowerCase())) {
      return { error: `Header "${name}" is given twice` };
    }
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(row.value.trim());
    if (env) headers[name] = { action: 'env', name: env[1]! };
    else if (row.value) headers[name] = { action: 'set', value: row.value };
    else if (row.isSaved) headers[name] = { action: 'keep' };
    else return { error: `Header "${name}" needs a value` };
  }
  return { headers };
}

export function McpHeaderFields({
  rows,
  onChange,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
}) {
  const update = (index: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <div className="mcp-headers" data-testid={TEST_IDS.mcpHeaders}>
      <span>HTTP headers (values are kept like API keys)</span>
      {rows.map((row, index) => (
        <div key={index} className="mcp-header-row" data-testid={TEST_IDS.mcpHeaderRow}>
          <input
            aria-label="Header name"
            className="mono"
            placeholder="X-Api-Key"
            spellCheck={false}
            value={row.name}
            data-testid={`${TEST_IDS.mcpHeaderRow}-name`}
            onChange={(e) => update(index, { name: e.target.value, isSaved: false })}
          />
          <input
            aria-label={`Value of ${row.name || 'the header'}`}
            type="password"
            autoComplete="off"
            className="mono"
            placeholder={
              row.env
                ? `read from env:${row.env} (type to replace)`
                : row.isSaved
                  ? 'set (type to replace)'
                  : 'value, or env:NAME'
            }
            value={row.value}
            data-testid={`${TEST_IDS.mcpHeaderRow}-value`}
            onChange={(e) => update(index, { value: e.target.value })}
          />
          <button
            type="button"
            className="link danger-link"
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="link"
        data-testid={TEST_IDS.mcpHeaderAdd}
        onClick={() => onChange([...rows, { name: '', value: '', isSaved: false }])}
      >
        Add header
      </button>
    </div>
  );
}
