/**
 * The TOML form of an agent definition (docs/agents.md): top-level keys for what the
 * agent is, `[run]` for the run settings `[agent.NAME]` has in config.toml (same keys,
 * same limits). Unknown keys are errors, so a typo never silently drops a setting.
 */
import { z } from 'zod';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import { agentSettingsSchema } from '../../config/schema';

/** Agent names: what `--agent NAME` and the file name use. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const runSettingsSchema = agentSettingsSchema.omit({ llm: true }).strict();

export const definitionFileSchema = z
  .object({
    name: z
      .string()
      .regex(
        AGENT_NAME_PATTERN,
        'must be 1-64 letters, digits, _ . - (starting with a letter or digit)',
      ),
    description: z.string().max(2000).default(''),
    system_prompt: z
      .string()
      .max(200_000)
      .refine((s) => s.trim() !== '', 'must not be empty: write what the agent is and does'),
    next_step_prompt: z.string().max(200_000).default(''),
    tools: z.array(z.string()).max(500).default([]),
    terminate_tools: z.array(z.string()).max(50).default(['terminate']),
    profile: z.string().trim().min(1).optional(),
    run: runSettingsSchema.default({}),
  })
  .strict();

export type DefinitionFileInput = z.input<typeof definitionFileSchema>;

/** The parsed data with optional keys left out (JSON-equal whatever the file omitted). */
export function definitionData(parsed: z.output<typeof definitionFileSchema>): AgentDefinitionData {
  return {
    name: parsed.name,
    description: parsed.description,
    system_prompt: parsed.system_prompt,
    next_step_prompt: parsed.next_step_prompt,
    tools: parsed.tools,
    terminate_tools: parsed.terminate_tools,
    ...(parsed.profile !== undefined ? { profile: parsed.profile } : {}),
    run: parsed.run,
  };
}
