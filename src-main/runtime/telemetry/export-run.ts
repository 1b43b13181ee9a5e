/**
 * `workbench runs export RUN --otlp URL`: one run from the history sent as OTLP spans
 * (protobuf over HTTP), in requests of at most 512 spans. Unlike live export a failure
 * here is the command's: it throws with the receiver's answer.
 */
import type { RunEvent } from '@shared/events';
import { encodeTraces } from './otlp-proto';
import { postTraces, tracesUrl } from './otlp-exporter';
import { runToSpans, traceIdOf, workbenchResource } from './run-spans';

export async function exportRunToOtlp(
  runId: string,
  events: readonly RunEvent[],
  endpoint: string,
  headers: Record<string, string> = {},
): Promise<{ url: string; spans: number; traceId: string }> {
  const url = tracesUrl(endpoint);
  const spans = runToSpans(runId, events);
  for (let at = 0; at < spans.length; at += 512) {
    await postTraces(url, encodeTraces(workbenchResource(), spans.slice(at, at + 512)), {
      headers,
      timeoutMs: 30_000,
    });
  }
  return { url, spans: spans.length, traceId: traceIdOf(runId) };
}
