/**
 * Runs for host tests and benchmarks: a real ToolCallAgent driven by an in-process
 * scripted model, with a tool that asks the human through the runtime's broker (the
 * way the `ask_human` tool does), so the transports are tested end to end.
 */
import { z } from 'zod';
import { ToolCallAgent } from '../../runtime/loop/toolcall-agent';
import { ScriptedLlm, type ScriptedReply } from '../../runtime/llm/scripted-llm';
import type { RunFactory } from '../../runtime/runs/run-manager';
import type { Runtime } from '../../runtime/runtime';
import { createTerminateTool } from '../../runtime/tools/terminate';
import type { Tool } from '../../runtime/tools/tool';
import { ToolRegistry } from '../../runtime/tools/tool-registry';

const askSchema = z.object({ inquire: z.string() });
const noteSchema = z.object({ text: z.string() });

/** A 2×2 PNG, what the `note` tool shows for the text `picture`. */
export const TEST_RUN_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

/** A step that does something (a text-only reply may end a run, depending on policy). */
const noteTool: Tool<z.infer<typeof noteSchema>> = {
  name: 'note',
  description: 'Write a note.',
  schema: noteSchema,
  execute: async (args) => ({
    output: `noted: ${args.text}`,
    ...(args.text === 'picture'
      ? { image: { mimeType: 'image/png', data: TEST_RUN_PNG_BASE64 } }
      : {}),
  }),
};

function askTool(runtime: () => Runtime): Tool<z.infer<typeof askSchema>> {
  return {
    name: 'ask_human',
    description: 'Ask the user a question and wait for the answer.',
    schema: askSchema,
    async execute(args, ctx) {
      const answer = await runtime().services.human.ask({
        runId: ctx.runId,
        toolCallId: ctx.toolCallId,
        question: args.inquire,
        signal: ctx.signal,
        emit: ctx.emit,
      });
      return { output: `The user answered: ${answer}` };
    },
  };
}

/**
 * Task `ask: QUESTION` asks once then terminates; `steps: N [delay: MS]` talks for N
 * steps; anything else finishes in two steps. With `picture` in the task, the notes
 * return an image (the run's history keeps it).
 */
export function testRunFactory(runtime: () => Runtime): RunFactory {
  return async (input, context) => {
    const ask = /^ask: (.+)$/.exec(input.task)?.[1];
    const steps = Number(/steps: (\d+)/.exec(input.task)?.[1] ?? 2);
    const delayMs = Number(/delay: (\d+)/.exec(input.task)?.[1] ?? 1);
    const script = (_r: unknown, i: number): ScriptedReply => {
      if (ask && i === 0) return { toolCalls: [{ name: 'ask_human', args: { inquire: ask } }] };
      if (!ask && i + 1 < steps) {
        return {
          delayMs,
          content: `thinking, step ${i + 1}`,
          toolCalls: [
            {
              name: 'note',
              args: { text: input.task.includes('picture') ? 'picture' : `step ${i + 1}` },
            },
          ],
        };
      }
      return {
        delayMs,
        content: 'done',
        toolCalls: [{ name: 'terminate', args: { status: 'success' } }],
      };
    };
    const tools = new ToolRegistry([askTool(runtime), noteTool, createTerminateTool()]);
    const agent = new ToolCallAgent(
      { name: input.agent, maxSteps: input.maxSteps ?? 50 },
      { llm: new ScriptedLlm(script, { model: 'test-model', recordRequests: false }), tools },
      {
        emit: context.emit,
        runId: context.runId,
        ...(context.debug ? { debug: context.debug } : {}),
        ...(context.keepImage ? { keepImage: context.keepImage } : {}),
      },
    );
    return {
      agentName: input.agent,
      model: 'test-model',
      maxSteps: input.maxSteps ?? 50,
      execute: (task, signal) => agent.run(task, { signal }),
      dispose: () => tools.dispose(),
    };
  };
}
