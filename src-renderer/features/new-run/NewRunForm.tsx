import { useState, type FormEvent } from 'react';
import { AGENT_NAMES, type AgentName } from '@shared/domain/agent';
import { parseBreakpoint } from '@shared/domain/debugger';
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
  const [breakpoints, setBreakpoints] = useState('');
  const [approveTools, setApproveTools] = useState('');
  const [isStarting, setIsStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const model = config?.agents[isPlanning ? 'planning' : agent]?.llm.model.value;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!task.trim()) {
      setError('Describe the task for the agent');
      return;
    }
    const specs = splitList(breakpoints, /,/);
    const bad = specs.map(parseBreakpoint).find((p) => !p.ok);
    if (bad && !bad.ok) {
      setError(bad.error);
      return;
    }
    const tools = splitList(approveTools, /[\s,]+/);
    setIsStarting(true);
    setError(null);
    try {
      await bridge.startRun({
        task: task.trim(),
        agent,
        ...(isPlanning ? { flow: 'planning' as const } : {}),
        ...(specs.length > 0 ? { breakpoints: specs } : {}),
        ...(tools.length > 0 ? { approveTools: tools } : {}),
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
      <div className="new-run-debug">
        <label>
          Breakpoints{' '}
          <input
            data-testid={TEST_IDS.runBreakpointsInput}
            value={breakpoints}
            placeholder="tool:bash, stuck, tool_error, step:5, tokens:50k"
            onChange={(e) => setBreakpoints(e.target.value)}
          />
        </label>
        <label>
          Approve before running{' '}
          <input
            data-testid={TEST_IDS.runApproveInput}
            value={approveTools}
            placeholder="bash, str_replace_editor"
            onChange={(e) => setApproveTools(e.target.value)}
          />
        </label>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.runStartError}>
          {error}
        </p>
      )}
    </form>
  );
}

function splitList(text: string, separator: RegExp): string[] {
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
}
