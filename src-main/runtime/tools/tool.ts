/**
 * The tool contract (OpenManus BaseTool): a name, a description, parameters as JSON
 * schema, and a result of `{output, error?, image?}`. Arguments are parsed and validated
 * by the loop with the tool's zod schema before `execute` runs, so a tool only ever sees
 * well-formed input (reliability.md 3.2 invariant a).
 */
import { z } from 'zod';
import type { MessageImage } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { ToolSpec } from '../llm/llm-client';

export interface ToolResult {
  output: string;
  /** set when the tool failed; the model sees it as an error observation */
  error?: string;
  /** an image to show the model; it is attached to a following user message */
  image?: MessageImage;
  exitCode?: number;
  /**
   * cuts an earlier cap (the sandbox's capture cap) made in this output: its marker and
   * what it stood for, so max_observe's marker can state the true amount when it cuts
   * that marker away (observation.ts)
   */
  earlierCuts?: readonly { marker: string; omitted: number }[];
  /** the call ran out of time and was stopped (the loop ends a run after several in a row) */
  timedOut?: boolean;
  /** the failure must end the run (e.g. the workspace outgrew its limit) */
  endsRun?: boolean;
  /** structured data the tool returned (an MCP tool's `structuredContent`), for the UI */
  structured?: unknown;
}

export interface ToolContext {
  signal: AbortSignal;
  runId: string;
  agent: string;
  step: number;
  toolCallId: string;
  emit: (event: RunEventPayload) => void;
  /**
   * characters of `output` the model will see uncut (`max_observe` less the observation's
   * framing); a tool whose output has structure (the browser's element list) fits itself
   * into it rather than being cut in the middle. Absent: no cap.
   */
  outputBudget?: number;
}

export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType<Args>;
  execute(args: Args, context: ToolContext): Promise<ToolResult>;
  /** releases what the tool holds (browser, shell, connection); called when its owner is disposed */
  dispose?(): Promise<void>;
}

/** The JSON schema of a tool's arguments, as the model receives it. */
export function toolParameters(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema, {
    io: 'input',
  }) as Record<string, unknown>;
  return parameters;
}

/** The OpenAI function declaration for a tool, derived from its zod schema. */
export function toolSpec(tool: Tool): ToolSpec {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: toolParameters(tool.schema),
    },
  };
}

export function ok(output: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { output, ...extra };
}

export function fail(error: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { output: '', error, ...extra };
}
