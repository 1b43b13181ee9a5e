/**
 * Input schemas of the Agents page's requests (issue 28 item 2), spread into
 * `requestSchemas` (ipc-schemas.ts). They check shapes and sizes only: what a definition
 * says (an unknown tool, an empty prompt, a missing profile, a bad template variable, a
 * value out of range) is checked by the runtime's loader and answered as field problems,
 * so the editor can show them beside their fields.
 */
import { z } from 'zod';
import { CONFIG_TEXT_REPLY_POLICIES, CONFIG_TOOL_CHOICES } from './domain/config-view';

/** An agent's name (the file's), as the editor and the list name it. */
export const agentName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'must be 1-64 letters, digits, _ . - (starting with a letter or digit)',
  );
/** NAME or NAME@VERSION */
const agentRef = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@\d{1,9})?$/, 'must be an agent name or NAME@VERSION');

const text = (max: number) => z.string().max(max);
const names = z.array(z.string().max(300)).max(500);

/** The definition as the editor holds it (AgentDefinitionData). */
export const agentDefinitionInput = z
  .object({
    name: text(200),
    description: text(2000),
    system_prompt: text(200_000),
    next_step_prompt: text(200_000),
    tools: names,
    terminate_tools: names,
    profile: text(200).optional(),
    run: z
      .object({
        max_steps: z.number().int().optional(),
        duplicate_threshold: z.number().int().optional(),
        max_messages: z.number().int().optional(),
        max_observe: z.number().int().optional(),
        tool_choice: z.enum(CONFIG_TOOL_CHOICES).optional(),
        text_reply_policy: z.enum(CONFIG_TEXT_REPLY_POLICIES).optional(),
        breakpoints: names.optional(),
        approve_tools: names.optional(),
      })
      .strict(),
  })
  .strict();

const empty = z.object({}).strict();

export const agentsSchemas = {
  'agents:list': empty,
  'agents:get': z.object({ name: agentName }).strict(),
  'agents:tools': empty,
  'agents:validate': z.object({ definition: agentDefinitionInput }).strict(),
  'agents:save': z.object({ name: agentName, definition: agentDefinitionInput }).strict(),
  'agents:create': z.object({ name: agentName, from: agentRef.optional() }).strict(),
  'agents:rename': z.object({ name: agentName, to: agentName }).strict(),
  'agents:delete': z.object({ name: agentName }).strict(),
  'agents:import': z
    .object({
      content: z
        .string()
        .min(1, 'The file is empty')
        .max(1024 * 1024),
      fileName: z.string().max(500).optional(),
      name: agentName.optional(),
    })
    .strict(),
  'agents:export': z.object({ ref: agentRef }).strict(),
};
