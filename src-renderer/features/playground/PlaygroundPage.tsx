/**
 * The playground (issue 28 item 4, docs/playground.md): a model call of a recorded run,
 * opened from the inspector, as an editable request; Send sends it from the host (the
 * profile's base URL and key never come here) N times at once and shows each reply as it
 * streams beside the recorded one. Nothing done here changes the run.
 */
import { useEffect, useRef, useState } from 'react';
import type { PlaygroundRequestView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { RequestEditor } from './RequestEditor';
import { PlaygroundReplies, type SampleView } from './PlaygroundReplies';
import { SavePromptPanel } from './SavePromptPanel';
import { systemTextOf, type Body } from './playground-draft';

export function PlaygroundPage() {
  const target = useWorkbench((s) => s.playground);
  if (!target) {
    return <p className="muted">Open a model call in the playground from the inspector.</p>;
  }
  return <PlaygroundLoader key={`${target.runId}/${target.seq}`} {...target} />;
}

function PlaygroundLoader(props: { runId: string; seq: number }) {
  const bridge = useBridge();
  const [view, setView] = useState<PlaygroundRequestView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    bridge.playground.openPlayground({ runId: props.runId, seq: props.seq }).then(
      (opened) => isCurrent && setView(opened),
      (failure: unknown) =>
        isCurrent && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      isCurrent = false;
    };
  }, [bridge, props.runId, props.seq]);
  if (error) {
    return (
      <div className="playground-page" data-testid={TEST_IDS.playgroundPage}>
        <p className="field-error" role="alert" data-testid={TEST_IDS.playgroundError}>
          {error}
        </p>
      </div>
    );
  }
  if (!view) return <p className="muted">Opening the model call…</p>;
  return <Playground view={view} />;
}

let sends = 0;

function Playground({ view }: { view: PlaygroundRequestView }) {
  const bridge = useBridge();
  const [body, setBody] = useState<Body>(view.body);
  const [profile, setProfile] = useState(view.profile);
  const [sampleCount, setSampleCount] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [samples, setSamples] = useState<SampleView[]>([]);
  const [sendError, setSendError] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  const sendId = useRef<string | null>(null);

  useEffect(
    () =>
      bridge.playground.onPlaygroundDelta((delta) => {
        if (delta.sendId !== sendId.current) return;
        setSamples((current) =>
          current.map((s, i) =>
            i !== delta.sample
              ? s
              : {
                  text: s.text + (delta.text ?? ''),
                  ...(delta.done ? { done: delta.done } : s.done ? { done: s.done } : {}),
                },
          ),
        );
      }),
    [bridge],
  );

  const chooseProfile = (name: string) => {
    // the model follows the profile unless it was edited away from the profile's own
    const before = view.profiles.find((p) => p.name === profile)?.model;
    const next = view.profiles.find((p) => p.name === name)?.model;
    if (next !== undefined && (body['model'] === before || body['model'] === view.body['model'])) {
      setBody({ ...body, model: next });
    }
    setProfile(name);
  };

  const send = () => {
    const id = `pg-${Date.now().toString(36)}-${++sends}`;
    sendId.current = id;
    setSamples(Array.from({ length: sampleCount }, () => ({ text: '' })));
    setSendError(null);
    setSending(true);
    bridge.playground
      .sendPlayground({ sendId: id, body, profile, samples: sampleCount })
      .then(
        (result) => {
          if (sendId.current !== id) return;
          // the answer holds every sample whole, whatever pushes were missed
          setSamples(result.samples.map((done) => ({ text: done.content ?? '', done })));
        },
        (failure: unknown) => {
          if (sendId.current !== id) return;
          setSamples([]);
          setSendError(failure instanceof Error ? failure.message : String(failure));
        },
      )
      .finally(() => setSending(false));
  };

  const system = systemTextOf(body);
  const isSystemEdited = system !== systemTextOf(view.body);
  return (
    <div className="playground-page" data-testid={TEST_IDS.playgroundPage}>
      <header className="playground-head">
        <h2>Playground</h2>
        <span className="muted">
          {view.agent}, step {view.step} of run{' '}
          <a className="mono" href={`#/run/${encodeURIComponent(view.runId)}/event/${view.seq}`}>
            {view.runId}
          </a>{' '}
          — edits and replies here are not recorded: the run stays as it was.
          {!view.isRecorded && ' Image bytes are not in the history: such messages hold a note.'}
        </span>
      </header>
      <div className="playground-body">
        <RequestEditor
          body={body}
          onChange={setBody}
          profile={profile}
          profiles={view.profiles}
          onProfile={chooseProfile}
          samples={sampleCount}
          onSamples={setSampleCount}
          onProblem={setProblem}
        />
        <div className="playground-side">
          <div className="playground-send-bar">
            <button
              type="button"
              className="primary"
              data-testid={TEST_IDS.playgroundSend}
              disabled={isSending || problem !== null}
              title={problem ?? undefined}
              onClick={send}
            >
              {isSending ? 'Sending…' : `Send${sampleCount > 1 ? ` ×${sampleCount}` : ''}`}
            </button>
            <button
              type="button"
              className="link"
              disabled={isSending}
              onClick={() => setBody(view.body)}
            >
              Reset to the recorded request
            </button>
          </div>
          {problem && <p className="field-error">{problem}</p>}
          {sendError && (
            <p className="field-error" role="alert" data-testid={TEST_IDS.playgroundError}>
              {sendError}
            </p>
          )}
          <PlaygroundReplies recorded={view.recordedReply} samples={samples} />
          {view.agentDefinition && (
            <SavePromptPanel
              key={isSystemEdited ? `edited:${system ?? ''}` : 'recorded'}
              runId={view.runId}
              agent={view.agentDefinition}
              initialPrompt={
                isSystemEdited && system !== undefined ? system : view.agentDefinition.systemPrompt
              }
            />
          )}
        </div>
      </div>
    </div>
  );
}
