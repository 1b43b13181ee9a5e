/**
 * The debugger's request inputs (breakpoints, approvals, edits of a paused step), checked
 * at the host boundary like every request (ipc-schemas.ts).
 */
import { z } from 'zod';
import { parseBreakpoint } from './domain/debugger';

/** A breakpoint in text form; the parser's message says what is wrong and what is allowed. */
export const breakpointSpec = z
  .string()
  .max(2000)
  .superRefine((spec, ctx) => {
    const parsed = parseBreakpoint(spec);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
  });
export const toolName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a tool name');
const toolCallId = z.string().min(1).max(500);
/** Tool arguments as the model sends them: one JSON object, as text. */
const toolArguments = z.string().max(512 * 1024);

export const debugEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('approve_call'), toolCallId }).strict(),
  z.object({ kind: z.literal('edit_call'), toolCallId, arguments: toolArguments }).strict(),
  z
    .object({ kind: z.literal('skip_call'), toolCallId, observation: z.string().max(100_000) })
    .strict(),
  z.object({ kind: z.literal('add_call'), name: toolName, arguments: toolArguments }).strict(),
  z
    .object({
      kind: z.literal('edit_message'),
      index: z.number().int().min(0),
      content: z.string().max(1_000_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal('add_message'),
      role: z.enum(['user', 'assistant']),
      content: z.string().min(1, 'The message is empty').max(1_000_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal('change_model'),
      profile: z.string().min(1).max(200).optional(),
      temperature: z.number().min(0).max(2).optional(),
    })
    .strict()
    .refine((e) => e.profile !== undefined || e.temperature !== undefined, {
      message: 'Name a profile or a temperature to change',
    }),
  z
    .object({
      kind: z.literal('provide_reply'),
      content: z.string().max(1_000_000),
      toolCalls: z
        .array(z.object({ name: toolName, arguments: toolArguments }).strict())
        .max(50)
        .optional(),
    })
    .strict(),
]);
