/**
 * The agent definition a run ran with (issue 28 item 3, `run.started.agentDefinition`):
 * its name and version, where it was read, its prompts as templates, its tools, the
 * tools that end the run, its profile and `[run]` settings, with a link to the agent on
 * the Agents page (`#/agents/NAME`).
 */
import type { RecordedAgentDefinition } from '@shared/domain/agent-definition';
import { TEST_IDS } from '../../test-ids';

const SOURCES: Record<RecordedAgentDefinition['source'], string> = {
  builtin: 'built-in',
  home: 'your agents folder',
  file: 'a file',
};

export function AgentDefinitionView({ recorded }: { recorded: RecordedAgentDefinition }) {
  const d = recorded.definition;
  const run = Object.entries(d.run);
  return (
    <details
      className="agent-definition"
      data-testid={TEST_IDS.runAgentDefinition}
      data-agent={d.name}
      data-version={recorded.version ?? ''}
    >
      <summary>
        Agent definition:{' '}
        <a
          href={`#/agents/${encodeURIComponent(d.name)}`}
          data-testid={TEST_IDS.runAgentLink}
          title="Open this agent on the Agents page"
          onClick={(e) => e.stopPropagation()}
        >
          {d.name}
        </a>
        {recorded.version !== undefined ? ` v${recorded.version}` : ''}{' '}
        <span className="muted">
          ({SOURCES[recorded.source]}
          {recorded.path ? `: ${recorded.path}` : ''}, hash {recorded.hash})
        </span>
      </summary>
      {d.description && <p>{d.description}</p>}
      <dl className="agent-definition-fields">
        <dt>profile</dt>
        <dd className="mono">{d.profile ?? 'the default ([agent] llm, else [llm])'}</dd>
        <dt>tools</dt>
        <dd className="mono">{d.tools.join(', ') || '(none)'}</dd>
        <dt>end the run</dt>
        <dd className="mono">{d.terminate_tools.join(', ') || '(none)'}</dd>
        {run.length > 0 && (
          <>
            <dt>[run]</dt>
            <dd className="mono">
              {run.map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(' · ')}
            </dd>
          </>
        )}
      </dl>
      <h4>System prompt</h4>
      <pre className="code agent-definition-prompt">{d.system_prompt}</pre>
      <h4>Next-step prompt</h4>
      <pre className="code agent-definition-prompt">{d.next_step_prompt || '(none)'}</pre>
    </details>
  );
}
