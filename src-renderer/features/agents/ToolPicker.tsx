import { useState } from 'react';
import type { AgentToolCatalog, AgentToolInfo } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';

/**
 * The tools an agent may call: each built-in tool and each MCP server's tools (listed
 * from the server now; a server that cannot be reached says why), with a box to pick it,
 * whether calling it ends the run, and its description and JSON schema on demand.
 * Patterns the catalog does not list (wildcards, a server's every tool) stay as chips.
 */
export function ToolPicker({
  catalog,
  catalogError,
  tools,
  terminateTools,
  errors,
  isReadOnly,
  onChange,
}: {
  catalog: AgentToolCatalog | null;
  catalogError: string | null;
  tools: readonly string[];
  terminateTools: readonly string[];
  errors: readonly string[];
  isReadOnly: boolean;
  onChange(tools: string[], terminateTools: string[]): void;
}) {
  const toggle = (pattern: string, isOn: boolean) => {
    const next = isOn ? [...tools, pattern] : tools.filter((t) => t !== pattern);
    onChange(
      next,
      terminateTools.filter((t) => next.includes(t)),
    );
  };
  const toggleEnding = (pattern: string, isOn: boolean) =>
    onChange(
      [...tools],
      isOn ? [...terminateTools, pattern] : terminateTools.filter((t) => t !== pattern),
    );
  const listed = new Set([
    ...(catalog?.builtin ?? []).map((t) => t.pattern),
    ...(catalog?.servers ?? []).flatMap((s) => [s.server, ...s.tools.map((t) => t.pattern)]),
  ]);
  const others = tools.filter((t) => !listed.has(t));
  const row = (tool: AgentToolInfo) => (
    <ToolRow
      key={tool.pattern}
      tool={tool}
      isPicked={tools.includes(tool.pattern)}
      isEnding={terminateTools.includes(tool.pattern)}
      isReadOnly={isReadOnly}
      onPick={(isOn) => toggle(tool.pattern, isOn)}
      onEnding={(isOn) => toggleEnding(tool.pattern, isOn)}
    />
  );
  return (
    <fieldset className="tool-picker" data-testid={TEST_IDS.agentTools}>
      <legend>Tools (in the order the model sees them: {tools.join(', ') || 'none'})</legend>
      {catalogError && <p className="field-error">{catalogError}</p>}
      {!catalog && !catalogError && <p className="muted">Listing the tools…</p>}
      {catalog && (
        <>
          <h4>Built-in</h4>
          {catalog.builtin.map(row)}
          {catalog.servers.map((s) => (
            <div
              key={s.server}
              className="tool-server"
              data-testid={TEST_IDS.agentToolServer}
              data-server={s.server}
            >
              <h4>
                MCP server {s.server}{' '}
                <label className="muted">
                  <input
                    type="checkbox"
                    disabled={isReadOnly}
                    checked={tools.includes(s.server)}
                    onChange={(e) => toggle(s.server, e.target.checked)}
                  />{' '}
                  every tool of {s.server}
                </label>
              </h4>
              {s.error && (
                <p className="field-error" data-testid={TEST_IDS.agentToolServerError}>
                  {s.error}
                </p>
              )}
              {s.tools.map(row)}
            </div>
          ))}
        </>
      )}
      {others.length > 0 && (
        <p>
          Patterns:{' '}
          {others.map((p) => (
            <span key={p} className="tool-chip">
              <code>{p}</code>
              {!isReadOnly && (
                <button type="button" className="link" onClick={() => toggle(p, false)}>
                  remove
                </button>
              )}
            </span>
          ))}
        </p>
      )}
      {!isReadOnly && <PatternAdder onAdd={(p) => !tools.includes(p) && toggle(p, true)} />}
      {errors.map((message) => (
        <p key={message} className="field-error" role="alert">
          {message}
        </p>
      ))}
    </fieldset>
  );
}

function ToolRow({
  tool,
  isPicked,
  isEnding,
  isReadOnly,
  onPick,
  onEnding,
}: {
  tool: AgentToolInfo;
  isPicked: boolean;
  isEnding: boolean;
  isReadOnly: boolean;
  onPick(isOn: boolean): void;
  onEnding(isOn: boolean): void;
}) {
  const [isOpen, setOpen] = useState(false);
  return (
    <div className="tool-row" data-testid={TEST_IDS.agentTool} data-tool={tool.pattern}>
      <label>
        <input
          type="checkbox"
          data-testid={TEST_IDS.agentToolPick}
          disabled={isReadOnly}
          checked={isPicked}
          onChange={(e) => onPick(e.target.checked)}
        />{' '}
        <code>{tool.pattern}</code>
      </label>{' '}
      <span className="muted tool-summary">{tool.description.split('\n')[0]}</span>{' '}
      {isPicked && (
        <label className="muted">
          <input
            type="checkbox"
            disabled={isReadOnly}
            checked={isEnding}
            onChange={(e) => onEnding(e.target.checked)}
          />{' '}
          ends the run
        </label>
      )}{' '}
      <button type="button" className="link" onClick={() => setOpen(!isOpen)}>
        {isOpen ? 'hide' : 'details'}
      </button>
      {isOpen && (
        <div className="tool-details" data-testid={TEST_IDS.agentToolDetails}>
          <pre className="tool-description">{tool.description}</pre>
          <pre className="tool-schema">{JSON.stringify(tool.parameters, null, 2)}</pre>
        </div>
      )}
    </div>
  );
}

function PatternAdder({ onAdd }: { onAdd(pattern: string): void }) {
  const [text, setText] = useState('');
  return (
    <label className="muted">
      Add a pattern{' '}
      <input
        value={text}
        placeholder="files/read_*, */*"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text.trim()) {
            e.preventDefault();
            onAdd(text.trim());
            setText('');
          }
        }}
      />
    </label>
  );
}
