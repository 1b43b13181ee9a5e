import { z } from 'zod';
import { ok, type Tool } from '../tools/tool';

export const FINISH_PLAN_TOOL = 'finish_plan';

const schema = z
  .object({
    summary: z.string().describe('What was accomplished: why no further plan steps are needed.'),
  })
  .strict();

/**
 * Given to a flow's executors: ends the whole flow early when the task is already done
 * (the original's early exit could never fire). It is a special tool for the executor,
 * so calling it also ends the executor's run.
 */
export function createFinishPlanTool(
  onFinish: (summary: string) => void,
): Tool<z.infer<typeof schema>> {
  return {
    name: FINISH_PLAN_TOOL,
    description:
      'Call this instead of terminate when the WHOLE task (not only your current step) is already complete. ' +
      'The remaining plan steps are skipped and the flow finishes.',
    schema,
    execute: async ({ summary }) => {
      onFinish(summary);
      return ok(`The whole task is marked complete: ${summary}`);
    },
  };
}
