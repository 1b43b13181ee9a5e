import { useEffect, useState, type FormEvent } from 'react';
import { AGENT_NAMES, isAgentName, type AgentName } from '@shared/domain/agent';
import type { McpPromptChoice, McpPromptInfo, PreflightInput, WorkspaceChoice } from '@shared/ipc';
import { runModelOf } from '@shared/run-model';
import { parseBreakpoint } from '@shared/domain/debugger';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { useUserAgents, USER_AGENT_PREFIX } from './use-user-agents';
import { ProfileSelect } from '../../components/ProfilePicker';
import { PreflightPanel } from './PreflightPanel';
import { usePreflight } from './use-preflight';
import { WorkspaceField, type WorkspaceValue } from './WorkspaceField';
import { missingArguments, PromptPicker } from './PromptPicker';

const AGENT_HELP: Record<AgentName, string> = {
  manus: 'general agent: Python, files, browser, shell',
  swe: 'software engineer: bash and the file editor',
  browser: 'browses the web',
  mcp: 'uses the tools of your MCP servers',
  toolcall: 'the bare tool-calling agent',
};

function workspaceChoice(value: WorkspaceValue): WorkspaceChoice | undefined {
  const path = value.path.trim();
  return path ? { path, mode: value.isIsolated ? 'copy' : 'mount' } : undefined;
}

/**
 * The task box: what to do, which agent (or the planning flow), where (a workspace
 * folder), what the run will meet (pre-flight), and Start.
 */
export function NewRunForm() {
  const bridge = useBridge();
  const config = useWorkbench((s) => s.config);
  const [task, setTask] = useState('');
  const store = useWorkbenchStore();
  const userAgents = useUserAgents(bridge.agents);
  /** a built-in agent's name, or `agent:NAME` for a user's agent */
  const [choice, setChoice] = useState<string>(() => {
    const asked = store.getState().newRunAgent;
    if (asked === null) return 'manus';
    return isAgentName(asked) ? asked : `${USER_AGENT_PREFIX}${asked}`;
  });
  // the form took the agent "Run" on the Agents page chose: the next New Run starts afresh
  useEffect(() => void store.getState().takeNewRunAgent(), [store]);
  const agentRef = choice.startsWith(USER_AGENT_PREFIX)
    ? choice.slice(USER_AGENT_PREFIX.length)
    : undefined;
  // a user's agent: the built-in agent whose needs it shares answers the pre-flight
  const agent: AgentName =
    agentRef !== undefined
      ? (userAgents.find((a) => a.name === agentRef)?.carrier ?? 'manus')
      : (choice as AgentName);
  const [isPlanningChecked, setPlanning] = useState(false);
  const isPlanning = isPlanningChecked && agentRef === undefined;
  /** '' is the agent's own profile */
  const [profile, setProfile] = useState('');
  const [workspace, setWorkspace] = useState<WorkspaceValue>({ path: '', isIsolated: false });
  const [breakpoints, setBreakpoints] = useState('');
  const [approveTools, setApproveTools] = useState('');
  const [isFromPrompt, setFromPrompt] = useState(false);
  const [prompt, setPrompt] = useState<(McpPromptChoice & { info: McpPromptInfo }) | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const agentView = config?.agents[isPlanning ? 'planning' : agent];
  const profileViews = config?.profileViews ?? [];
  const picked = profileViews.find((p) => p.name === profile);
  const chosenProfile = picked ? profile : '';
  const modelView = picked && !isPlanning ? picked : agentView;
  const model = modelView ? runModelOf(modelView) : undefined;
  const chosen = workspaceChoice(workspace);
  const preflightInput: PreflightInput = {
    agent,
    ...(isPlanning ? { flow: 'planning' as const } : {}),
    ...(chosen ? { workspace: chosen } : {}),
    // a planning flow runs several agents, each on its own profile
    ...(chosenProfile && !isPlanning ? { profile: chosenProfile } : {}),
  };
  const preflight = usePreflight(preflightInput, config);
  const isRefused = preflight.status === 'done' && !preflight.report.canStart;
  const canUsePrompt = agent === 'mcp' && !isPlanning;
  const usesPrompt = canUsePrompt && isFromPrompt;
  const mcpServers = (config?.sections.mcp.servers ?? []).map((s) => s.name);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (usesPrompt && !prompt) {
      setError('Choose an MCP prompt, or untick "start from an MCP prompt"');
      return;
    }
    const missing = usesPrompt && prompt ? missingArguments(prompt.info, prompt.arguments) : [];
    if (missing.length > 0) {
      setError(`The prompt ${prompt!.server}/${prompt!.name} requires ${missing.join(', ')}`);
      return;
    }
    if (!task.trim() && !usesPrompt) {
      setError('Describe the task for the agent');
      return;
    }
    if (isRefused) {
      setError('Fix the problems listed below first: the run cannot start with them');
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
        ...preflightInput,
        ...(agentRef !== undefined ? { agentRef } : {}),
        ...(specs.length > 0 ? { breakpoints: specs } : {}),
        ...(tools.length > 0 ? { approveTools: tools } : {}),
        ...(usesPrompt && prompt
          ? {
              prompt: { server: prompt.server, name: prompt.name, arguments: prompt.arguments },
            }
          : {}),
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
      {canUsePrompt && (
        <label>
          <input
            type="checkbox"
            data-testid={TEST_IDS.promptToggle}
            checked={isFromPrompt}
            onChange={(e) => setFromPrompt(e.target.checked)}
          />{' '}
          start from an MCP prompt (its messages are the task; text above is added after them)
        </label>
      )}
      {usesPrompt && (
        <PromptPicker
          key={mcpServers.join('\u0000')}
          servers={mcpServers}
          value={prompt}
          onChange={setPrompt}
        />
      )}
      <WorkspaceField value={workspace} onChange={setWorkspace} />
      <div className="new-run-actions">
        <label>
          Agent{' '}
          <select
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            data-testid={TEST_IDS.agentSelect}
          >
            {AGENT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name} — {AGENT_HELP[name]}
              </option>
            ))}
            {agentRef !== undefined && !userAgents.some((a) => a.name === agentRef) && (
              <option value={choice}>{agentRef}</option>
            )}
            {userAgents.length > 0 && (
              <optgroup label="Your agents">
                {userAgents.map((a) => (
                  <option key={a.name} value={`${USER_AGENT_PREFIX}${a.name}`}>
                    {a.name} v{a.version}
                    {a.description ? ` — ${a.description}` : ''}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        {!isPlanning && profileViews.length > 0 && (
          <ProfileSelect
            profiles={profileViews}
            value={chosenProfile}
            ownLabel={
              agentRef !== undefined
                ? `${agentRef}'s own (its profile, else the default)`
                : `${agent}'s own (${agentView?.profile ? `[llm.${agentView.profile}]` : '[llm]'})`
            }
            onChange={setProfile}
          />
        )}
        <label>
          <input
            type="checkbox"
            data-testid={TEST_IDS.flowSelect}
            checked={isPlanning}
            disabled={agentRef !== undefined}
            title={agentRef !== undefined ? 'a planning flow runs the built-in agents' : undefined}
            onChange={(e) => setPlanning(e.target.checked)}
          />{' '}
          plan first (PlanningFlow)
        </label>
        {model && (
          <span
            className={model.isDemo ? 'warn-text' : 'muted'}
            data-testid={TEST_IDS.newRunModel}
            data-demo={model.isDemo}
          >
            model: {model.label}
          </span>
        )}
        <span className="spacer" />
        <button
          type="submit"
          data-testid={TEST_IDS.runStart}
          disabled={isStarting || isRefused}
          title={isRefused ? 'The problems below keep this run from starting' : undefined}
        >
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
      <PreflightPanel state={preflight} />
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
