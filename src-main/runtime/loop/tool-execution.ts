/**
 * Runs one tool call the model asked for and turns every outcome into an observation:
 * arguments that are not JSON, arguments the schema rejects, unknown tools and tools
 * that throw all become error observations, and the run continues (reliability.md 3.2
 * invariants a, b). Each call emits exactly one `tool.started` and one `tool.finished`,
 * also when it is answered without running (`answerWithoutRunning`).
 */
import type { MessageImage, ToolCall } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ToolResult } from '../tools/tool';
import { isCancellation } from '../util/abort';
import { capObservation } from './observation';
import { parseArguments } from './tool-arguments';

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
  /** false when the tool returned an error or its command exited non-zero */
  ok: boolean;
  /** what the model sees in the tool message */
  observation: string;
  image?: MessageImage;
  /** the `status` argument of a successful call (terminate's finish status) */
  terminateStatus?: string;
  /** the call failed because the arguments or the tool name were wrong */
  invalid: 'arguments' | 'unknown_tool' | null;
  /** the tool ran out of time and was stopped */
  timedOut?: boolean;
  /** the tool's failure ends the run */
  endsRun?: boolean;
}

/** Raw argument strings in events are cut here: the model may send megabytes. */
const EVENT_ARGS_CAP = 10_000;

export async function executeToolCall(
  call: ToolCall,
  ctx: ToolExecutionContext,
): Promise<ToolCallOutcome> {
  const name = call.function.name;
  const parsed = parseArguments(call.function.arguments);
  const finish = started(call, ctx, parsed.ok ? parsed.value : call.function.arguments);

  const tool = ctx.tools.get(name);
  if (!tool) {
    const known = ctx.tools.names.join(', ');
    return finish(
      {
        output: '',
        error: `Unknown tool '${name}'. Call one of the available tools: ${known}.`,
      },
      'unknown_tool',
    );
  }
  if (!parsed.ok) {
    return finish(
      {
        output: '',
        error: `The arguments of ${name} could not be used: ${parsed.error}. The call was not executed; send the arguments as one JSON object matching the tool's parameters.`,
      },
      'arguments',
    );
  }
  let validated: ReturnType<typeof tool.schema.safeParse>;
  try {
    validated = tool.schema.safeParse(parsed.value);
  } catch (error) {
    // a refinement that throws is the tool's bug, but still the call's answer
    return finish(
      { output: '', error: `Invalid arguments for ${name}: ${(error as Error).message}` },
      'arguments',
    );
  }
  if (!validated.success) {
    const detail = validated.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join('.') || '(arguments)'}: ${i.message}`)
      .join('; ');
    return finish(
      {
        output: '',
        error: `Invalid arguments for ${name}: ${detail}. The call was not executed.`,
      },
      'arguments',
    );
  }
  try {
    const result = await tool.execute(validated.data, {
      signal: ctx.signal,
      runId: ctx.runId,
      agent: ctx.agent,
      step: ctx.step,
      toolCallId: call.id,
      emit: ctx.emit,
      ...(ctx.maxObserve !== undefined
        ? { outputBudget: Math.max(0, ctx.maxObserve - observationPrefix(name).length) }
        : {}),
    });
    // A tool that finished despite a stop keeps its real result; the loop stops after it.
    return finish(result, null, parsed.value);
  } catch (error) {
    if (isCancellation(error, ctx.signal)) {
      const outcome = finish({ output: '', error: CANCELLED_OBSERVATION });
      throw new ToolCancelled(outcome, error);
    }
    const message = error instanceof Error ? error.message : String(error);
    return finish({ output: '', error: `Tool '${name}' failed: ${message}` });
  }
}

export const CANCELLED_OBSERVATION = 'Cancelled: the run was stopped before this call completed.';

/**
 * Thrown when the run is stopped while a tool runs. Its tool.finished was emitted; the
 * loop still has to add the tool message (from `outcome`) before ending the run.
 */
export class ToolCancelled extends Error {
  constructor(
    readonly outcome: ToolCallOutcome,
    readonly reason: unknown,
  ) {
    super(CANCELLED_OBSERVATION);
    this.name = 'ToolCancelled';
  }
}

/**
 * Answers a call that will not run (the run finished earlier in the batch, the reply was
 * cut off, tools are disabled, the run was stopped): started + finished, ok false.
 */
export function answerWithoutRunning(
  call: ToolCall,
  reason: string,
  ctx: Pick<ToolExecutionContext, 'agent' | 'step' | 'emit' | 'maxObserve'>,
  invalid: ToolCallOutcome['invalid'] = null,
): ToolCallOutcome {
  const parsed = parseArguments(call.function.arguments);
  return started(
    call,
    ctx,
    parsed.ok ? parsed.value : call.function.arguments,
  )({ output: '', error: reason }, invalid);
}

/** Emits tool.started; returns the function that emits tool.finished and builds the outcome. */
function started(
  call: ToolCall,
  ctx: Pick<ToolExecutionContext, 'agent' | 'step' | 'emit' | 'maxObserve'>,
  args: unknown,
) {
  const name = call.function.name;
  const t0 = performance.now();
  ctx.emit({
    type: 'tool.started',
    agent: ctx.agent,
    step: ctx.step,
    toolCallId: call.id,
    name,
    args: typeof args === 'string' ? capObservation(args, EVENT_ARGS_CAP) : args,
  });
  return (
    result: ToolResult,
    invalid: ToolCallOutcome['invalid'] = null,
    validArgs?: unknown,
  ): ToolCallOutcome => {
    const returnedError = result.error !== undefined;
    // A command that exited non-zero failed (docs/run-outcome.md): `ok` is false in the
    // event and the outcome, while the model still reads its output as a normal
    // observation with the exit code (OpenManus's wording), not as an "Error:".
    const ok = !returnedError && (result.exitCode === undefined || result.exitCode === 0);
    const output = typeof result.output === 'string' ? result.output : String(result.output);
    const raw = returnedError
      ? `Error: ${result.error}`
      : `${observationPrefix(name)}${output || '(no output)'}`;
    ctx.emit({
      type: 'tool.finished',
      agent: ctx.agent,
      step: ctx.step,
      toolCallId: call.id,
      name,
      ok,
      output: capObservation(output, ctx.maxObserve, result.earlierCuts),
      ...(result.error !== undefined
        ? { error: capObservation(result.error, ctx.maxObserve, result.earlierCuts) }
        : {}),
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      ...structuredField(result.structured),
      durationMs: Math.round(performance.now() - t0),
    });
    const status = ok ? statusOf(validArgs) : undefined;
    return {
      ok,
      observation: capObservation(raw, ctx.maxObserve, result.earlierCuts),
      invalid,
      ...(result.image ? { image: result.image } : {}),
      ...(status !== undefined ? { terminateStatus: status } : {}),
      ...(result.timedOut ? { timedOut: true } : {}),
      ...(result.endsRun && !ok ? { endsRun: true } : {}),
    };
  };
}

/** Structured data larger than this is left out of `tool.finished` (the output has it). */
export const STRUCTURED_EVENT_CAP = 64 * 1024;

function structuredField(structured: unknown): { structured?: unknown } {
  if (structured === undefined) return {};
  const size = JSON.stringify(structured)?.length ?? 0;
  return size <= STRUCTURED_EVENT_CAP ? { structured } : {};
}

/** How a successful result is framed for the model (OpenManus's wording). */
function observationPrefix(name: string): string {
  return `Observed output of cmd \`${name}\` executed:\n`;
}

function statusOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const status = (args as { status?: unknown }).status;
  return typeof status === 'string' ? status : undefined;
}
