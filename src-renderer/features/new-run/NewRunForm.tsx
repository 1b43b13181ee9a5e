import { useState, type FormEvent } from 'react';
import { AGENT_NAMES, type AgentName } from '@shared/domain/agent';
import { useApi, useWorkbench } from '../../store/StoreProvider';

export function NewRunForm() {
  const api = useApi();
  const selectRun = useWorkbench((s) => s.selectRun);
  const [task, setTask] = useState('');
  const [agent, setAgent] = useState<AgentName>('manus');
  const [isStarting, setIsStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!task.trim()) {
      setError('Describe the task for the agent');
      return;
    }
    setIsStarting(true);
    setError(null);
    try {
      const { runId } = await api.startRun({ task: task.trim(), agent });
      selectRun(runId);
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
        data-testid="task-input"
        value={task}
        placeholder="What should the agent do?"
        rows={3}
        onChange={(e) => setTask(e.target.value)}
      />
      <div className="new-run-actions">
        <label>
          Agent{' '}
          <select
            value={agent}
            onChange={(e) => setAgent(e.target.value as AgentName)}
            data-testid="agent-select"
          >
            {AGENT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" data-testid="start-run" disabled={isStarting}>
          {isStarting ? 'Starting…' : 'Start run'}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
