/**
 * `ask_human` (OpenManus tool/ask_human.py): puts a question to the user and waits for
 * the answer without blocking anything else (the original called input() inside async
 * code). The question goes through the HumanBroker to whichever surface is attached;
 * stopping the run cancels the wait; with no one to answer, the model gets a clear
 * error instead of a hang.
 */
import { z } from 'zod';
import type { HumanBroker } from './human-broker';
import { HumanUnavailableError } from './human-broker';
import { fail, ok, type Tool } from './tool';

const schema = z
  .object({
    inquire: z.string().trim().min(1).max(4000).describe('The question you want to ask the user.'),
  })
  .strict();

export function createAskHumanTool(broker: HumanBroker): Tool<z.infer<typeof schema>> {
  return {
    name: 'ask_human',
    description:
      'Ask the user a question and wait for the answer. Use it only when you need information or a decision ' +
      'that only the user can give.',
    schema,
    async execute({ inquire }, context) {
      try {
        const answer = await broker.ask({
          runId: context.runId,
          toolCallId: context.toolCallId,
          question: inquire,
          signal: context.signal,
          emit: context.emit,
        });
        return ok(answer);
      } catch (error) {
        if (error instanceof HumanUnavailableError) return fail(error.message);
        throw error; // cancellation: the loop answers the call and ends the run
      }
    },
  };
}
