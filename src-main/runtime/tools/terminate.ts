import { z } from 'zod';
import { ok, type Tool } from './tool';

const schema = z
  .object({
    status: z.enum(['success', 'failure']).describe('The finish status of the interaction.'),
  })
  .strict();

/** Ends the run (a special tool: the loop sets FINISHED and skips the rest of the batch). */
export function createTerminateTool(): Tool<z.infer<typeof schema>> {
  return {
    name: 'terminate',
    description:
      'Terminate the interaction when the request is met OR if you cannot proceed further with the task. ' +
      'When you have finished all the tasks, call this tool to end the work.',
    schema,
    execute: async ({ status }) => ok(`The interaction has been completed with status: ${status}`),
  };
}
