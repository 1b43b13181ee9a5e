import { useEffect, useState } from 'react';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type { AgentDetail, AgentFieldIssue, AgentToolCatalog } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { ProfileSelect } from '../../components/ProfilePicker';
import { downloadText } from '../../lib/download';
import { PromptEditor } from './PromptEditor';
import { ToolPicker } from './ToolPicker';
import { RunSettingsFields } from './RunSettingsFields';
import { NameForm } from './NameForm';
import { useAgentCheck } from './use-agent-check';

/** The problems of one key (`tools`), or of a key and its parts (`run` matches `run.max_steps`). */
export function issuesAt(issues: readonly AgentFieldIssue[], path: string): string[] {
  return issues.filter((i) => i.path === path).map((i) => i.message);
}

const FIELD_PATHS = [
  'system_prompt',
  'next_step_prompt',
  'tools',
  'terminate_tools',
  'profile',
  'description',
];

/**
 * One agent: its prompts, tools, profile and run settings, checked as typed (problems
 * beside their fields before Save), saved as a new version. A built-in agent is shown
 * read-only with Duplicate.
 */
export function AgentEditor({ name, catalog }: { name: string; catalog: CatalogState }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const profiles = useWorkbench((s) => s.config?.profileViews) ?? [];
  const [detail, setDetail] = useState<AgentDetail | null>(null);
  const [draft, setDraft] = useState<AgentDefinitionData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saveIssues, setSaveIssues] = useState<AgentFieldIssue[] | null>(null);
  const [isDuplicating, setDuplicating] = useState(false);
  const check = useAgentCheck(bridge.agents, detail?.isReadOnly === false ? draft : null);

  useEffect(() => {
    // (the page keys this editor by name: another agent gets a fresh one)
    let isLive = true;
    bridge.agents.getAgent({ name }).then(
      (d) => {
        if (!isLive) return;
        setDetail(d);
        setDraft(d.definition ?? null);
      },
      (e: Error) => isLive && setError(e.message),
    );
    return () => {
      isLive = false;
    };
  }, [bridge, name]);

  if (error) {
    return (
      <p className="field-error" role="alert" data-testid={TEST_IDS.agentError}>
        {error}
      </p>
    );
  }
  if (!detail) return <p className="muted">Loading {name}…</p>;
  const isReadOnly = detail.isReadOnly;
  // the newest answer: the host's check of this very draft, else what the last save said,
  // else the problems the file was opened with
  const issues =
    check.checked === draft && check.result
      ? check.result.issues
      : (saveIssues ?? (draft === detail.definition ? detail.issues : []));
  // a count stays exact while its prompt is the text it was counted for
  const counted = check.result && check.checked ? check : null;
  const exact = (key: 'system_prompt' | 'next_step_prompt') =>
    counted && draft && counted.checked![key] === draft[key]
      ? counted.result!.tokens[key]
      : undefined;
  const update = (patch: Partial<AgentDefinitionData>) => {
    if (!draft) return;
    setDraft({ ...draft, ...patch });
    setNotice(null);
    setSaveIssues(null);
  };
  const save = async () => {
    if (!draft) return;
    try {
      const result = await bridge.agents.saveAgent({ name, definition: draft });
      setSaveIssues(result.issues);
      if (result.saved) {
        setDetail(result.saved);
        setNotice(`Saved as version ${result.saved.version}`);
      } else setNotice(null);
    } catch (e) {
      setNotice((e as Error).message);
    }
  };
  const other = issues.filter((i) => !FIELD_PATHS.includes(i.path) && !i.path.startsWith('run.'));
  return (
    <div className="agent-editor" data-testid={TEST_IDS.agentEditor} data-agent={name}>
      <div className="agent-editor-header">
        <button type="button" className="link" onClick={() => store.getState().showAgents(null)}>
          ← agents
        </button>
        <h2>{name}</h2>
        <span className="muted" data-testid={TEST_IDS.agentVersion}>
          {isReadOnly ? 'built-in, read-only' : `version ${detail.version ?? '?'}`}
          {detail.versions.length > 1 ? ` of ${detail.versions.length}` : ''}
        </span>
        <span className="spacer" />
        {!isReadOnly && (
          <button type="button" data-testid={TEST_IDS.agentSave} onClick={() => void save()}>
            Save
          </button>
        )}
        <button
          type="button"
          data-testid={TEST_IDS.agentDuplicate}
          onClick={() => setDuplicating(true)}
        >
          Duplicate
        </button>
        <button
          type="button"
          onClick={() =>
            void bridge.agents
              .exportAgent({ ref: name })
              .then((f) => downloadText(f.fileName, f.content, 'application/toml'))
          }
        >
          Export
        </button>
        <button
          type="button"
          data-testid={TEST_IDS.agentRun}
          disabled={detail.issues.length > 0}
          title="Open New Run with this agent (its saved version)"
          onClick={() => store.getState().runWithAgent(name)}
        >
          Run
        </button>
      </div>
      {isDuplicating && (
        <NameForm
          action="Duplicate"
          initial={`${name}-copy`}
          onCancel={() => setDuplicating(false)}
          onSubmit={async (to) => {
            await bridge.agents.createAgent({ name: to, from: name });
            setDuplicating(false);
            store.getState().showAgents(to);
          }}
        />
      )}
      {notice && (
        <p className="muted" role="status" data-testid={TEST_IDS.agentNotice}>
          {notice}
        </p>
      )}
      {other.map((i) => (
        <p key={`${i.path}${i.message}`} className="field-error" role="alert">
          {i.path}
          {i.line !== undefined ? ` (line ${i.line})` : ''}: {i.message}
        </p>
      ))}
      {!draft ? (
        <pre className="agent-text">{detail.text}</pre>
      ) : (
        <>
          <label className="agent-field">
            Description
            <input
              data-testid={TEST_IDS.agentDescription}
              readOnly={isReadOnly}
              value={draft.description}
              onChange={(e) => update({ description: e.target.value })}
            />
          </label>
          <PromptEditor
            label="System prompt"
            testId={TEST_IDS.agentSystemPrompt}
            value={draft.system_prompt}
            tokens={exact('system_prompt')}
            errors={issuesAt(issues, 'system_prompt')}
            isReadOnly={isReadOnly}
            rows={16}
            onChange={(system_prompt) => update({ system_prompt })}
          />
          <PromptEditor
            label="Next-step prompt (the last user message of each request; empty: none)"
            testId={TEST_IDS.agentNextStepPrompt}
            value={draft.next_step_prompt}
            tokens={exact('next_step_prompt')}
            errors={issuesAt(issues, 'next_step_prompt')}
            isReadOnly={isReadOnly}
            rows={4}
            onChange={(next_step_prompt) => update({ next_step_prompt })}
          />
          <ToolPicker
            catalog={catalog.catalog}
            catalogError={catalog.error}
            tools={draft.tools}
            terminateTools={draft.terminate_tools}
            errors={[...issuesAt(issues, 'tools'), ...issuesAt(issues, 'terminate_tools')]}
            isReadOnly={isReadOnly}
            onChange={(tools, terminate_tools) => update({ tools, terminate_tools })}
          />
          <div className="agent-field" data-testid={TEST_IDS.agentProfile}>
            {isReadOnly ? (
              <span>
                Profile: {draft.profile ?? 'the default'} ([agent.{name}] in Settings)
              </span>
            ) : (
              <ProfileSelect
                profiles={profiles}
                value={draft.profile ?? ''}
                ownLabel="the default ([agent] llm, else [llm])"
                testId={TEST_IDS.agentProfileSelect}
                onChange={(profile) => {
                  const { profile: _old, ...rest } = draft;
                  setDraft(profile ? { ...rest, profile } : rest);
                  setSaveIssues(null);
                }}
              />
            )}
            {issuesAt(issues, 'profile').map((m) => (
              <p key={m} className="field-error" role="alert">
                {m}
              </p>
            ))}
          </div>
          <RunSettingsFields
            run={draft.run}
            isReadOnly={isReadOnly}
            errorsOf={(path) => issuesAt(issues, path)}
            onChange={(run) => update({ run })}
          />
        </>
      )}
    </div>
  );
}

export interface CatalogState {
  catalog: AgentToolCatalog | null;
  error: string | null;
}
