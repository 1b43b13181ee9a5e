/**
 * zod schemas for every request input of the contract in `ipc.ts`. Main validates each
 * request with these before it reaches the runtime; the UI may use them for inline
 * validation. The `satisfies` clause keeps them in lockstep with the typed map.
 * Config values get their full checks (ranges, URL shape) from the config schema in
 * main, which also names the line; here they are checked for type and sane size.
 */
import { z } from 'zod';
import { AGENT_NAMES, FLOW_NAMES } from './domain/agent';
import { isRunId, isSessionId } from './domain/ids';
import { isImageRef } from './image-ref';
import { MCP_SERVER_TYPES } from './domain/settings-sections';
import { breakpointSpec, debugEdit, toolName } from './debug-schemas';
import { filesSchemas } from './files-schemas';
import { filesLiveSchemas } from './files-live-schemas';
import { playgroundSchemas } from './playground-schemas';
import { agentsSchemas } from './agents-schemas';
import { experimentsSchemas } from './experiments-schemas';
import {
  CONFIG_AGENT_NAMES,
  CONFIG_API_TYPES,
  CONFIG_TEXT_REPLY_POLICIES,
  CONFIG_TOOL_CHOICES,
  type IpcError,
  type RequestChannel,
  type RequestInput,
} from './ipc';

const runId = z
  .string()
  .refine(isRunId, 'must be a run id (1-200 letters, digits, . _ -; not only dots)');
const sessionId = z
  .string()
  .refine(isSessionId, 'must be 1-100 letters, digits, . _ or - (not only dots)');
/** Large enough for a long run's history, small enough to refuse an accidental upload. */
const MAX_IMPORT_CHARS = 200 * 1024 * 1024;
const empty = z.object({}).strict();

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const llmEdits = z
  .object({
    model: nullable(z.string().max(200)),
    base_url: nullable(z.string().max(2000)),
    api_type: nullable(z.enum(CONFIG_API_TYPES)),
    api_version: nullable(z.string().max(100)),
    max_tokens: nullable(z.number().int()),
    temperature: nullable(z.number()),
    max_input_tokens: nullable(z.number().int()),
    stream: nullable(z.boolean()),
    reasoning: nullable(z.boolean()),
    timeout: nullable(z.number()),
    max_retries: nullable(z.number().int()),
    max_concurrency: nullable(z.number().int()),
    input_price: nullable(z.number()),
    output_price: nullable(z.number()),
  })
  .strict();

const agentSettingEdits = z
  .object({
    max_steps: nullable(z.number().int()),
    duplicate_threshold: nullable(z.number().int()),
    max_messages: nullable(z.number().int()),
    max_observe: nullable(z.number().int()),
    tool_choice: nullable(z.enum(CONFIG_TOOL_CHOICES)),
    text_reply_policy: nullable(z.enum(CONFIG_TEXT_REPLY_POLICIES)),
  })
  .strict();

const apiKeyEdit = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('set'),
      value: z
        .string()
        .trim()
        .min(1, 'The API key is empty (use "clear" to remove it)')
        .max(4096)
        .refine((v) => !/\s/.test(v), 'An API key has no spaces or line breaks')
        .refine((v) => !v.startsWith('env:'), 'Use the "env" action for env: references'),
    })
    .strict(),
  z
    .object({
      action: z.literal('env'),
      name: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,200}$/, 'must be an environment variable name'),
    })
    .strict(),
  z.object({ action: z.literal('clear') }).strict(),
]);

/** An existing profile's name (`[llm.NAME]`; new names get the stricter profileNameProblem). */
const profileName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'not a profile name (letters, digits, _ . -)');
const configTarget = z.union([
  z.enum(['default', ...CONFIG_AGENT_NAMES]),
  z.templateLiteral(['profile:', profileName]),
]);
const profileEdit = z.discriminatedUnion('action', [
  z
    .object({ action: z.literal('create'), name: profileName, from: profileName.optional() })
    .strict(),
  z.object({ action: z.literal('rename'), name: profileName, to: profileName }).strict(),
  z
    .object({ action: z.literal('delete'), name: profileName, reassignTo: profileName.optional() })
    .strict(),
  z
    .object({
      action: z.literal('assign'),
      agent: z.enum(CONFIG_AGENT_NAMES),
      profile: profileName.nullable(),
    })
    .strict(),
]);

/** A host folder: absolute (POSIX or Windows), no NUL, sane length. */
const hostPath = z
  .string()
  .min(1, 'Choose a folder')
  .max(4096)
  .refine((v) => !v.includes('\0'), 'must not contain NUL')
  .refine((v) => v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v), 'must be an absolute path');
const workspaceChoice = z.object({ path: hostPath, mode: z.enum(['mount', 'copy']) }).strict();

/** `[mcp.servers.NAME]`: a TOML bare key, so the name survives a round trip unquoted. */
const mcpServerName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -');
const mcpServer = z
  .object({
    type: z.enum(MCP_SERVER_TYPES),
    command: z.string().max(4096).optional(),
    args: z.array(z.string().max(4096)).max(100).optional(),
    url: z.string().max(2000).optional(),
    env: z.record(z.string().max(200), z.string().max(10_000)).optional(),
    timeout: z.number().positive().max(3600).optional(),
  })
  .strict();

const sandboxEdits = z
  .object({
    use_sandbox: nullable(z.boolean()),
    image: nullable(z.string().max(500)),
    memory_limit: nullable(z.string().max(50)),
    workspace_limit: nullable(z.string().max(50)),
    cpu_limit: nullable(z.number()),
    pids_limit: nullable(z.number().int()),
    timeout: nullable(z.number()),
    network_enabled: nullable(z.boolean()),
  })
  .strict();
const browserEdits = z
  .object({
    headless: nullable(z.boolean()),
    executable_path: nullable(z.string().max(4096)),
    max_content_length: nullable(z.number().int()),
    keep_screenshots: nullable(z.number().int()),
  })
  .strict();

const telemetryEdits = z
  .object({
    otlp_endpoint: nullable(z.string().max(2000)),
    receiver_port: nullable(z.number().int()),
  })
  .strict();

const batchId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'not a batch id')
  .refine((id) => !/^\.+$/.test(id), 'not a batch id');
const batchTask = z
  .object({
    task: z.string().trim().min(1, 'A task needs its text').max(100_000),
    workspace: z.string().min(1).max(4096).optional(),
    check: z.string().trim().min(1).max(10_000).optional(),
  })
  .strict();

/** A user's agent as the UI names it: NAME or NAME@VERSION (docs/agents.md). */
const agentRefSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@\d{1,9})?$/, 'must be an agent name or NAME@VERSION');

export const requestSchemas = {
  'app:info': empty,
  'run:start': z
    .object({
      // may be empty when an MCP prompt gives the task (checked below)
      task: z.string().trim().max(100_000),
      agent: z.enum(AGENT_NAMES).optional(),
      // a user's agent by name or NAME@VERSION (never a path from the UI)
      agentRef: agentRefSchema.optional(),
      flow: z.enum(FLOW_NAMES).optional(),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
      sessionId: sessionId.optional(),
      workspace: workspaceChoice.optional(),
      breakpoints: z.array(breakpointSpec).max(100).optional(),
      approveTools: z.array(toolName).max(100).optional(),
      rerunOf: runId.optional(),
      rerunSettings: z.enum(['recorded', 'current']).optional(),
      profile: profileName.optional(),
      prompt: z
        .object({
          server: z.string().min(1).max(200),
          name: z.string().min(1).max(500),
          arguments: z.record(z.string().max(200), z.string().max(100_000)),
        })
        .strict()
        .optional(),
    })
    .strict()
    .refine((input) => input.task.length > 0 || input.prompt !== undefined, {
      path: ['task'],
      message: 'Describe the task for the agent',
    }),
  'run:stop': z.object({ runId }).strict(),
  'runs:list': empty,
  'runs:get': z
    .object({
      runId,
      afterSeq: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(1_000_000).optional(),
    })
    .strict(),
  'runs:export': z.object({ runId }).strict(),
  'runs:import': z
    .object({
      content: z.string().min(1, 'The file is empty').max(MAX_IMPORT_CHARS),
      fileName: z.string().max(500).optional(),
    })
    .strict(),
  'runs:diff': z.object({ a: runId, b: runId }).strict(),
  'runs:steps': z
    .object({ runId, from: z.number().int().min(0), to: z.number().int().min(0) })
    .strict()
    .refine((r) => r.to >= r.from && r.to - r.from <= 500, {
      message: 'to must lie in from..from + 500: a page holds at most 500 steps',
      path: ['to'],
    }),
  'runs:compare': z
    .object({
      runIds: z
        .array(runId)
        .min(2, 'Compare needs at least two runs')
        .max(12, 'Compare takes at most 12 runs'),
    })
    .strict(),
  'runs:fork': z
    .object({
      runId,
      step: z.number().int().min(1).max(100_000),
      message: z.string().max(100_000).optional(),
      agentModel: z.string().trim().min(1).max(200).optional(),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
      withoutFiles: z.boolean().optional(),
      agentRef: agentRefSchema.optional(),
    })
    .strict(),
  'runs:resume': z.object({ runId }).strict(),
  'runs:continue': z
    .object({
      runId,
      message: z
        .string()
        .max(100_000)
        .refine((text) => text.trim() !== '', 'Write a message to continue the run with'),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
    })
    .strict(),
  'runs:checkpoints': z.object({ runId }).strict(),
  'runs:rename': z.object({ runId, title: z.string().max(10_000) }).strict(),
  'runs:delete': z.object({ runId }).strict(),
  'runs:image': z
    .object({
      runId,
      ref: z
        .string()
        .max(100)
        .refine(isImageRef, 'must be an image ref (<sha256>.png|jpg|gif|webp)'),
    })
    .strict(),
  ...filesSchemas,
  ...filesLiveSchemas,
  ...experimentsSchemas,
  'config:get': empty,
  'config:save': z
    .object({
      target: configTarget,
      llm: llmEdits.optional(),
      settings: agentSettingEdits.optional(),
      apiKey: apiKeyEdit.optional(),
    })
    .strict()
    .refine((input) => !(input.settings && isLlmTarget(input.target)), {
      message: 'Run settings belong to an agent ([agent.NAME]), not to a model profile',
      path: ['settings'],
    }),
  'config:import-openmanus': z
    .object({
      content: z.string().max(1024 * 1024),
      fileName: z.string().max(500).optional(),
      dryRun: z.boolean().optional(),
    })
    .strict(),
  'config:test-connection': z
    .object({ target: configTarget, llm: llmEdits.optional(), apiKey: apiKeyEdit.optional() })
    .strict(),
  'config:profile': profileEdit,
  'human:answer': z
    .object({
      runId,
      toolCallId: z.string().min(1).max(500),
      answer: z.string().max(100_000),
    })
    .strict(),
  'sandbox:status': z.object({ sessionId: sessionId.optional() }).strict(),
  'run:preflight': z
    .object({
      agent: z.enum(AGENT_NAMES).optional(),
      flow: z.enum(FLOW_NAMES).optional(),
      workspace: workspaceChoice.optional(),
      profile: profileName.optional(),
      agentRef: agentRefSchema.optional(),
    })
    .strict(),
  'sandbox:images': empty,
  'config:save-sections': z
    .object({
      sandbox: sandboxEdits.optional(),
      browser: browserEdits.optional(),
      telemetry: telemetryEdits.optional(),
      mcp: z
        .object({
          servers: z.record(mcpServerName, mcpServer.nullable()).optional(),
          agentServer: mcpServerName.nullable().optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  'mcp:test': z.object({ name: mcpServerName, server: mcpServer }).strict(),
  'mcp:prompts': z.object({ server: mcpServerName.optional() }).strict(),
  'dialog:pick-folder': empty,
  'debug:pause': z.object({ runId }).strict(),
  'debug:resume': z.object({ runId }).strict(),
  'debug:step': z.object({ runId, scope: z.enum(['cycle', 'model']) }).strict(),
  'debug:set-breakpoint': z.object({ runId, spec: breakpointSpec }).strict(),
  'debug:clear-breakpoint': z
    .object({ runId, id: z.string().regex(/^bp-\d{1,6}$/, 'must be a breakpoint id (bp-N)') })
    .strict(),
  'debug:set-approval': z.object({ runId, tools: z.array(toolName).max(100) }).strict(),
  'debug:edit': z.object({ runId, edit: debugEdit }).strict(),
  'batch:start': z
    .object({
      agent: z.enum(AGENT_NAMES),
      tasks: z.array(batchTask).min(1, 'Give at least one task').max(1_000),
      profiles: z.array(profileName).max(20),
      repeat: z.number().int().min(1).max(100),
      concurrency: z.number().int().min(1).max(64),
      check: z.string().trim().min(1).max(10_000).optional(),
      maxSteps: z.number().int().min(1).max(100_000).optional(),
    })
    .strict(),
  'batch:stop': z.object({ batchId }).strict(),
  'batch:resume': z.object({ batchId }).strict(),
  'batch:get': z.object({ batchId }).strict(),
  'batch:list': empty,
  'gateway:status': empty,
  'gateway:set': z.object({ isOn: z.boolean(), profile: profileName.optional() }).strict(),
  ...playgroundSchemas,
  'telemetry:status': empty,
  ...agentsSchemas,
} satisfies { [C in RequestChannel]: z.ZodType<RequestInput<C>> };

/** `[llm]` or a `profile:NAME` page: model settings only. */
function isLlmTarget(target: string): boolean {
  return target === 'default' || target.startsWith('profile:');
}

export type ParseResult<C extends RequestChannel> =
  { ok: true; value: RequestInput<C> } | { ok: false; error: IpcError };

export function parseRequest<C extends RequestChannel>(channel: C, input: unknown): ParseResult<C> {
  const schema = requestSchemas[channel] as unknown as z.ZodType<RequestInput<C>>;
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
  return {
    ok: false,
    error: {
      code: 'invalid_input',
      message: `Invalid input for ${channel}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    },
  };
}
