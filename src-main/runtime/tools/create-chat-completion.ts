/**
 * `create_chat_completion` (OpenManus tool/create_chat_completion.py): the bare
 * ToolCallAgent's way to deliver an answer as a tool call. By default its one parameter
 * is `response` (a string) and the result is that text; with a custom object schema the
 * result is the structured arguments as JSON, as the original's `response_type` did.
 */
import { z } from 'zod';
import { ok, type Tool } from './tool';

const defaultSchema = z
  .object({
    response: z.string().describe('The response text that should be delivered to the user.'),
  })
  .strict();

export function createChatCompletionTool(): Tool<z.infer<typeof defaultSchema>>;
export function createChatCompletionTool<T extends z.ZodObject>(schema: T): Tool<z.infer<T>>;
export function createChatCompletionTool(schema?: z.ZodObject): Tool<Record<string, unknown>> {
  return {
    name: 'create_chat_completion',
    description: 'Creates a structured completion with specified output formatting.',
    schema: (schema ?? defaultSchema) as z.ZodType<Record<string, unknown>>,
    execute: async (args) =>
      ok(schema ? JSON.stringify(args) : String((args as { response: string }).response)),
  };
}
