import { useMemo, useState } from 'react';
import type { Role } from '@shared/domain/message';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import type { TimelineItem } from '../../store/timeline/types';
import { useDebugAction } from './use-debug-action';

interface WindowMessage {
  index: number;
  role: Role;
  content: string;
}

const NO_ITEMS: TimelineItem[] = [];
const NO_PROFILES: string[] = [];

/** The agent's context window as it stands: its stored messages the model still receives. */
function contextWindow(items: readonly TimelineItem[], agent: string): WindowMessage[] {
  const out: WindowMessage[] = [];
  for (const item of items) {
    if (item.agent !== agent) continue;
    if (item.kind === 'message' && item.droppedAtSeq === undefined)
      out.push({ index: item.memoryIndex, role: item.role, content: item.content ?? '' });
    else if (
      item.kind === 'tool' &&
      item.memoryIndex !== undefined &&
      item.droppedAtSeq === undefined
    )
      out.push({ index: item.memoryIndex, role: 'tool', content: item.observation ?? '' });
  }
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Paused before a model call: edit a message of the context, add one, switch the model
 * profile or temperature for the rest of the run, or type the reply in place of the model.
 */
export function PausedContext({ runId, agent }: { runId: string; agent: string }) {
  const bridge = useBridge();
  const items = useWorkbench((s) => s.runs[runId]?.timeline.items ?? NO_ITEMS);
  const profiles = useWorkbench((s) => s.config?.profiles ?? NO_PROFILES);
  const hasTypedReply = useWorkbench((s) => s.runs[runId]?.timeline.debug?.hasTypedReply ?? false);
  const messages = useMemo(() => contextWindow(items, agent), [items, agent]);
  const [selected, setSelected] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [added, setAdded] = useState('');
  const [profile, setProfile] = useState('');
  const [temperature, setTemperature] = useState('');
  const [reply, setReply] = useState('');
  const [replyTool, setReplyTool] = useState('');
  const action = useDebugAction();
  const edit = (e: Parameters<typeof bridge.debug.edit>[1]) =>
    action.run(() => bridge.debug.edit(runId, e));

  const choose = (value: string) => {
    const index = value === '' ? null : Number(value);
    setSelected(index);
    setText(messages.find((m) => m.index === index)?.content ?? '');
  };
  const submitReply = async () => {
    const [name, ...json] = replyTool.trim().split(/\s+/);
    const done = await edit({
      kind: 'provide_reply',
      content: reply,
      ...(name ? { toolCalls: [{ name, arguments: json.join(' ') || '{}' }] } : {}),
    });
    if (done) await action.run(() => bridge.debug.resume(runId));
  };

  return (
    <div className="paused-context">
      <div className="paused-row">
        <select
          data-testid={TEST_IDS.contextEditIndex}
          value={selected ?? ''}
          onChange={(e) => choose(e.target.value)}
          aria-label="Message to edit"
        >
          <option value="">Edit a message…</option>
          {messages.map((m) => (
            <option key={m.index} value={m.index}>
              #{m.index} {m.role}: {m.content.replace(/\s+/g, ' ').slice(0, 60)}
            </option>
          ))}
        </select>
        {selected !== null && (
          <>
            <textarea
              data-testid={TEST_IDS.contextEditInput}
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <button
              type="button"
              data-testid={TEST_IDS.contextEditSave}
              onClick={() =>
                void edit({ kind: 'edit_message', index: selected, content: text }).then(
                  (done) => done && setSelected(null),
                )
              }
            >
              Save message
            </button>
          </>
        )}
      </div>
      <div className="paused-row">
        <input
          data-testid={TEST_IDS.contextAddInput}
          value={added}
          placeholder="Add a user message to the context (a hint, a correction)"
          onChange={(e) => setAdded(e.target.value)}
        />
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.contextAdd}
          disabled={!added.trim()}
          onClick={() =>
            void edit({ kind: 'add_message', role: 'user', content: added }).then(
              (done) => done && setAdded(''),
            )
          }
        >
          Add message
        </button>
      </div>
      <div className="paused-row">
        <label>
          Model profile{' '}
          <select
            data-testid={TEST_IDS.modelProfileSelect}
            value={profile}
            onChange={(e) => setProfile(e.target.value)}
          >
            <option value="">(unchanged)</option>
            {['default', ...profiles].map((p) => (
              <option key={p} value={p}>
                {p === 'default' ? '[llm]' : `[llm.${p}]`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Temperature{' '}
          <input
            data-testid={TEST_IDS.modelTemperatureInput}
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={temperature}
            placeholder="unchanged"
            onChange={(e) => setTemperature(e.target.value)}
          />
        </label>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.modelChange}
          disabled={!profile && temperature === ''}
          onClick={() =>
            void edit({
              kind: 'change_model',
              ...(profile ? { profile } : {}),
              ...(temperature !== '' ? { temperature: Number(temperature) } : {}),
            })
          }
        >
          Use for the rest of the run
        </button>
      </div>
      <div className="paused-row">
        <textarea
          data-testid={TEST_IDS.replyInput}
          rows={2}
          value={reply}
          placeholder="Type the assistant's reply instead of calling the model"
          onChange={(e) => setReply(e.target.value)}
        />
        <input
          className="mono"
          data-testid={TEST_IDS.replyToolInput}
          value={replyTool}
          placeholder='optional call: terminate {"status":"success"}'
          onChange={(e) => setReplyTool(e.target.value)}
        />
        <button
          type="button"
          data-testid={TEST_IDS.replyUse}
          disabled={!reply.trim() && !replyTool.trim()}
          onClick={() => void submitReply()}
        >
          {hasTypedReply ? 'Replace the reply and continue' : 'Use this reply and continue'}
        </button>
      </div>
      {action.error && (
        <p className="field-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
}
