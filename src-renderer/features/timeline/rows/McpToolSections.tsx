/**
 * What an MCP tool card shows besides its text result: the structured content
 * (`tool.finished.structured`) as a tree, and the model calls the server asked for while
 * the tool ran (sampling), each labelled as that server's request.
 */
import { JsonTree } from '../../../components/JsonTree';
import { clip, formatCount, formatDuration } from '../../../lib/format';
import type { SamplingCall, ToolItem } from '../../../store/timeline/types';
import { TEST_IDS } from '../../../test-ids';

export function StructuredResult({ item }: { item: ToolItem }) {
  if (item.structured === undefined) return null;
  return (
    <div className="tool-section" data-testid={TEST_IDS.toolStructured}>
      <div className="section-label">Structured result</div>
      <JsonTree value={item.structured} />
    </div>
  );
}

export function SamplingCalls({ item, isExpanded }: { item: ToolItem; isExpanded: boolean }) {
  if (!item.sampling || item.sampling.length === 0) return null;
  return (
    <>
      {item.sampling.map((call) => (
        <SamplingSection key={call.seq} call={call} isExpanded={isExpanded} />
      ))}
    </>
  );
}

function SamplingSection({ call, isExpanded }: { call: SamplingCall; isExpanded: boolean }) {
  const asked = call.messages?.filter((m) => m.role !== 'system').at(-1)?.content ?? null;
  return (
    <div
      className="tool-section tool-sampling"
      data-testid={TEST_IDS.toolSampling}
      data-server={call.server}
      data-model={call.model}
      data-answered={call.reply !== undefined}
    >
      <div className="section-label">Model call: sampling request of MCP server {call.server}</div>
      <div className="muted">
        {call.model}
        {call.reply
          ? ` · ${formatCount(call.reply.usage.prompt)} in / ${formatCount(call.reply.usage.completion)} out · ${formatDuration(call.reply.durationMs)}`
          : ' · waiting…'}
      </div>
      {asked !== null && (
        <div className="code">
          <span className="muted">asked: </span>
          {isExpanded ? asked : clip(asked, 200)}
        </div>
      )}
      {call.reply && (
        <div className="code">
          <span className="muted">answered: </span>
          {isExpanded ? (call.reply.content ?? '') : clip(call.reply.content ?? '', 200)}
        </div>
      )}
    </div>
  );
}
