/**
 * Runs one tool call the model asked for and turns every outcome into an observation:
 * arguments that are not JSON, arguments the schema rejects, unknown tools and tools
 * that throw all become error observations, and the run continues. Each call emits
 * exactly one `tool.started` and one `tool.finished`.
 */
import type { ToolCall } from '@shared/domain/message';
import type { MessageImage } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ToolResult } from '../tools/tool';
import { isCancellation } from '../util/abort';
import { capObservation } from './observation';

export interface ToolExecutionContext {
  tools: ToolRegistry;
  agent: string;
  runId: string;
  step: number;
  signal: AbortSignal;
  emit: (event: RunEventPayload) => void;
  maxObserve: number | undefined;
}

export interface ToolCallOutcome {
  ok: boolean;
  /** what the model sees in the tool message */
  observation: string;
  image?: MessageImage;
  terminateStatus?: string;
  /** the call failed because the arguments or the tool name were wrong */
  invalid: 'arguments' | 'unknown_tool' | null;
}

export async function executeToolCall(
  call: ToolCall,
  ctx: ToolExecutionContext,
): Promise<ToolCallOutcome> {
  const name = call.function.name;
  const started = performance.now();
  const parsed = parseArguments(call.function.arguments);
  ctx.emit({
    type: 'tool.started',
    agent: ctx.agent,
    step: ctx.step,
    toolCallId: call.id,
    name,
    args: parsed.ok ? parsed.value : call.function.arguments,
  });

  const finish = (
    result: ToolResult,
    invalid: ToolCallOutcome['invalid'] = null,
  ): ToolCallOutcome => {
    const ok = result.error === undefined;
    const raw = ok
      ? `Observed output of cmd \`${name}\` executed:\n${result.output || '(no output)'}`
      : `Error: ${result.error}`;
    const observation = capObservation(raw, ctx.maxObserve);
    ctx.emit({
      type: 'tool.finished',
      agent: ctx.agent,
      step: ctx.step,
      toolCallId: call.id,
      name,
      ok,
      output: result.output,
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      durationMs: Math.round(performance.now() - started),
    });
    return {
      ok,
      observation,
      invalid,
      ...(result.image ? { image: result.image } : {}),
      ...(ok && name === 'terminate' && parsed.ok
        ? { terminateStatus: statusOf(parsed.value) }
        : {}),
    };
  };

  const tool = ctx.tools.get(name);
  if (!tool) {
    const known = ctx.tools.names.join(', ');
    return finish(
      { output: '', error: `Unknown tool '${name}'. Available tools: ${known}` },
      'unknown_tool',
    );
  }
  if (!parsed.ok) {
    return finish(
      { output: '', error: `Error parsing arguments for ${name}: ${parsed.error}` },
      'arguments',
    );
  }
  const validated = tool.schema.safeParse(parsed.value);
  if (!validated.success) {
    const detail = validated.error.issues
      .map((i) => `${i.path.map(String).join('.') || '(arguments)'}: ${i.message}`)
      .join('; ');
    return finish({ output: '', error: `Invalid arguments for ${name}: ${detail}` }, 'arguments');
  }
  try {
    const result = await tool.execute(validated.data, {
      signal: ctx.signal,
      runId: ctx.runId,
      agent: ctx.agent,
      step: ctx.step,
      toolCallId: call.id,
      emit: ctx.emit,
    });
    return finish(result);
  } catch (error) {
    if (isCancellation(error, ctx.signal)) {
      finish({ output: '', error: 'Cancelled: the run was stopped while this tool was running' });
      throw error;
    }
    const message = error instanceof Error ? error.message : String(error);
    return finish({ output: '', error: `Tool '${name}' failed: ${message}` });
  }
}

type ParsedArguments = { ok: true; value: unknown } | { ok: false; error: string };

/** Arguments must be a JSON object; an empty string means no arguments. */
export function parseArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `Invalid JSON format (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error: `Arguments must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    };
  }
  return { ok: true, value };
}

function statusOf(args: unknown): string | undefined {
  const status = (args as { status?: unknown }).status;
  return typeof status === 'string' ? status : undefined;
}
