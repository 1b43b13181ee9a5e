import { useState, type FormEvent } from 'react';
import { AGENT_NAMES, type AgentName } from '@shared/domain/agent';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';

const AGENT_HELP: Record<AgentName, string> = {
  manus: 'general agent: Python, files, browser, shell',
  swe: 'software engineer: bash and the file editor',
  browser: 'browses the web',
  mcp: 'uses the tools of your MCP servers',
  toolcall: 'the bare tool-calling agent',
};

/** The task box: what to do, which agent (or the planning flow), and Start. */
export function NewRunForm() {
  const bridge = useBridge();
  const config = useWorkbench((s) => s.config);
  const [task, setTask] = useState('');
  const [agent, setAgent] = useState<AgentName>('manus');
  const [isPlanning, setPlanning] = useState(false);
  const [isStarting, setIsStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const model = config?.agents[isPlanning ? 'planning' : agent]?.llm.model.value;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!task.trim()) {
      setError('Describe the task for the agent');
      return;
    }
    setIsStarting(true);
    setError(null);
    try {
      await bridge.startRun({
        task: task.trim(),
        agent,
        ...(isPlanning ? { flow: 'planning' as const } : {}),
      });
      setTask('');
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setIsStarting(false);
    }
  };

  return (
    <form className="new-run" onSubmit={(e) => void submit(e)} aria-label="New run">
      <label htmlFor="task-input">Task</label>
      <textarea
        id="task-input"
        data-testid={TEST_IDS.taskInput}
        value={task}
        placeholder="What should the agent do? (Ctrl+Enter to start)"
        rows={4}
        autoFocus
        onChange={(e) => setTask(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
        }}
      />
      <div className="new-run-actions">
        <label>
          Agent{' '}
          <select
            value={agent}
            onChange={(e) => setAgent(e.target.value as AgentName)}
            data-testid={TEST_IDS.agentSelect}
          >
            {AGENT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name} — {AGENT_HELP[name]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            data-testid={TEST_IDS.flowSelect}
            checked={isPlanning}
            onChange={(e) => setPlanning(e.target.checked)}
          />{' '}
          plan first (PlanningFlow)
        </label>
        {model && <span className="muted">model: {model}</span>}
        <span className="spacer" />
        <button type="submit" data-testid={TEST_IDS.runStart} disabled={isStarting}>
          {isStarting ? 'Starting…' : 'Start run'}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.runStartError}>
          {error}
        </p>
      )}
    </form>
  );
}
