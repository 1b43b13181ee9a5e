/**
 * "Save the system prompt into the agent": a user agent gets it as its next version; a
 * built-in agent (or a file's) only into a new user agent, named here. The prompt is a
 * template: it starts as the agent's own when the system message was not edited, else as
 * the edited message (whose {{variables}} were rendered: write them back where wanted).
 */
import { useState } from 'react';
import type { PlaygroundAgentView, PlaygroundSavePromptResult } from '@shared/ipc';
import { TEMPLATE_VARIABLES } from '@shared/domain/agent-definition';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';

export function SavePromptPanel(props: {
  runId: string;
  agent: PlaygroundAgentView;
  /** the prompt to start from */
  initialPrompt: string;
}) {
  const { runId, agent } = props;
  const bridge = useBridge();
  const [prompt, setPrompt] = useState(props.initialPrompt);
  const [asName, setAsName] = useState(`${agent.name}-copy`);
  const [saved, setSaved] = useState<PlaygroundSavePromptResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isCopy = agent.source !== 'home';
  const save = () => {
    setBusy(true);
    setError(null);
    bridge.playground
      .savePlaygroundPrompt({ runId, systemPrompt: prompt, ...(isCopy ? { asName } : {}) })
      .then(setSaved, (failure: unknown) =>
        setError(failure instanceof Error ? failure.message : String(failure)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <details className="playground-save" data-testid={TEST_IDS.playgroundSave}>
      <summary>
        Save the system prompt into {agent.name}
        {agent.version !== undefined ? ` (the run used v${agent.version})` : ''}
      </summary>
      <p className="muted">
        A template:{' '}
        {Object.keys(TEMPLATE_VARIABLES)
          .map((v) => `{{${v}}}`)
          .join(', ')}{' '}
        are filled in when the agent runs.
        {isCopy &&
          ` ${agent.name} is ${agent.source === 'builtin' ? 'a built-in agent' : 'read from a file'}: the prompt goes into a copy of it, a new user agent.`}
      </p>
      <textarea
        className="mono"
        data-testid={TEST_IDS.playgroundSavePrompt}
        rows={10}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <div className="playground-save-bar">
        {isCopy && (
          <label>
            new agent{' '}
            <input
              className="mono"
              data-testid={TEST_IDS.playgroundSaveName}
              value={asName}
              onChange={(e) => setAsName(e.target.value)}
            />
          </label>
        )}
        <button
          type="button"
          data-testid={TEST_IDS.playgroundSaveButton}
          disabled={isBusy || prompt.trim() === '' || (isCopy && asName.trim() === '')}
          onClick={save}
        >
          {isCopy ? 'Duplicate with this prompt' : `Save as a new version of ${agent.name}`}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {saved && (
        <p data-testid={TEST_IDS.playgroundSaved}>
          Saved: {saved.name} v{saved.version}
          {saved.isDuplicate ? ' (a new user agent)' : ''}.{' '}
          <a href={`#/agents/${encodeURIComponent(saved.name)}`}>Open it on the Agents page</a>
        </p>
      )}
    </details>
  );
}
