/**
 * The config.toml schema (DESIGN section 4): a superset of OpenManus's. Objects are
 * strict, so an unknown key is reported (with its path) instead of silently ignored.
 * Defaults live here, in one place.
 */
import { z } from 'zod';
import type { AGENT_NAMES } from '@shared/domain/agent';
import { CONFIG_AGENT_NAMES } from '@shared/domain/config-view';
import { containerDirProblem } from '../util/contained-path';
import { enginesSchema } from './engines-schema';
import { parseBreakpoint } from '@shared/domain/debugger';
import { headerNameProblem } from '@shared/mcp-headers';

/**
 * `scripted` replays a scenario file through the project's own OpenAI-compatible server
 * (the built-in demo, and offline trials); `scenario` names the file, and without it
 * each agent gets its bundled demo scenario.
 */
export const API_TYPES = ['openai', 'azure', 'ollama', 'scripted'] as const;

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL');

/** Keys of an LLM profile; every key optional so `[llm.NAME]` can override just one. */
export const llmProfileShape = {
  model: z.string().trim().min(1, 'must not be empty').max(200),
  base_url: httpUrl,
  /** the key itself, or "env:NAME" to read it from the environment */
  api_key: z.string().max(4096),
  api_type: z.enum(API_TYPES, {
    // OpenManus's Bedrock client has no counterpart here: say so instead of "invalid option".
    error: (issue) =>
      issue.input === 'aws'
        ? '"aws" (Amazon Bedrock) is not supported: use an OpenAI-compatible gateway in front of Bedrock with api_type = "openai", or another provider'
        : undefined,
  }),
  api_version: z.string().max(100),
  max_tokens: z.number().int().min(1).max(1_000_000),
  temperature: z.number().min(0).max(2),
  /** per-request context guard, not a lifetime budget (fixes openmanus.md 7.2 item 3) */
  max_input_tokens: z.number().int().min(256).max(10_000_000),
  stream: z.boolean(),
  /**
   * a reasoning model whatever its name (an Azure deployment called "prod"): requests carry
   * max_completion_tokens and no temperature. o1/o3/o4/gpt-5 names are recognised anyway.
   */
  reasoning: z.boolean(),
  /** per attempt, seconds */
  timeout: z.number().positive().max(3600),
  max_retries: z.number().int().min(0).max(20),
  /** for api_type = "scripted": a scenario file (JSON, see llm/testing/scenario-script.ts) */
  scenario: z.string().max(4096),
  /** US dollars per million input / output tokens, for cost estimates (0 = the list price) */
  input_price: z.number().min(0).max(100_000),
  output_price: z.number().min(0).max(100_000),
  /** model calls of this profile at once, across all runs (batches); beyond: they queue */
  max_concurrency: z.number().int().min(1).max(1_000),
};

export const llmProfileSchema = z.object(llmProfileShape).partial().strict();
export type LlmProfileInput = z.infer<typeof llmProfileSchema>;

export const TOOL_CHOICES = ['auto', 'required', 'none'] as const;

/** A breakpoint in its text form (`tool:bash`, `stuck`, `step:3`...), checked as it is read. */
const breakpointSpec = z.string().superRefine((spec, ctx) => {
  const parsed = parseBreakpoint(spec);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
});
const toolName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a tool name');
/** What a ToolCallAgent does with a text-only reply in auto mode (openmanus.md 7.2 item 2). */
export const TEXT_REPLY_POLICIES = ['reprompt_once', 'finish', 'continue'] as const;

export const agentSettingsSchema = z
  .object({
    max_steps: z.number().int().min(1).max(100_000),
    duplicate_threshold: z.number().int().min(1).max(100),
    max_messages: z.number().int().min(2).max(100_000),
    max_observe: z.number().int().min(100).max(10_000_000),
    llm: z.string().trim().min(1),
    tool_choice: z.enum(TOOL_CHOICES),
    text_reply_policy: z.enum(TEXT_REPLY_POLICIES),
    /** the agent debugger: where this agent's runs pause (docs/debugger.md) */
    breakpoints: z.array(breakpointSpec).max(100),
    /** approval mode: calls of these tools wait for approve / edit / skip */
    approve_tools: z.array(toolName).max(100),
  })
  .partial()
  .strict();
export type AgentSettingsInput = z.infer<typeof agentSettingsSchema>;

/**
 * Where the scalars of a bare `[agent]` table go in the parsed config: settings every
 * agent starts from (`[agent] max_steps = 30`, as OpenManus users write it), under
 * `[agent.NAME]` and over the built-in defaults.
 */
export const ALL_AGENTS = '*';

/** `[agent]`: its scalars are every agent's settings, its sub-tables one agent's each. */
const agentSectionSchema = z.record(z.string(), z.unknown()).transform((section, ctx) => {
  const scalars: Record<string, unknown> = {};
  const agents: Record<string, AgentSettingsInput> = {};
  for (const [key, value] of Object.entries(section)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      scalars[key] = value;
      continue;
    }
    // Only the agents that exist: `[agent.nope]` used to be accepted and ignored.
    if (!(CONFIG_AGENT_NAMES as readonly string[]).includes(key)) {
      ctx.addIssue({ code: 'custom', path: [], message: `unknown key(s): ${key}` });
      continue;
    }
    const parsed = agentSettingsSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue(relayIssue(issue, [key]));
      continue;
    }
    agents[key] = parsed.data;
  }
  if (Object.keys(scalars).length > 0) {
    const parsed = agentSettingsSchema.safeParse(scalars);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue(relayIssue(issue, []));
      return z.NEVER;
    }
    agents[ALL_AGENTS] = parsed.data;
  }
  return agents;
});

export const sandboxSchema = z
  .object({
    use_sandbox: z.boolean().default(true),
    image: z.string().trim().min(1).default('python:3.12-slim'),
    /** where the workspace is mounted in the container (checked: no "..", no system folder) */
    work_dir: z
      .string()
      .superRefine((value, ctx) => {
        const problem = containerDirProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .default('/workspace'),
    memory_limit: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'must look like 512m or 1g')
      .default('512m'),
    /** the session's workspace folder (bind-mounted, so not limited by the container) */
    workspace_limit: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'must look like 512m or 2g')
      .default('2g'),
    cpu_limit: z.number().positive().max(256).default(1.0),
    pids_limit: z.number().int().min(16).max(65_536).default(256),
    /** per command, seconds */
    timeout: z.number().positive().max(86_400).default(300),
    network_enabled: z.boolean().default(false),
    /** sandboxes of this app at once; more sessions wait for a free one (or take an idle one's) */
    max_containers: z.number().int().min(1).max(1000).default(5),
    /** the engines sandboxes are spread over (engines-schema.ts) */
    engines: enginesSchema,
  })
  .strict();

export const browserSchema = z
  .object({
    headless: z.boolean().default(true),
    executable_path: z.string().optional(),
    max_content_length: z.number().int().min(100).max(1_000_000).default(2000),
    /** screenshots kept in an agent's memory (older ones become a note); 0 takes none */
    keep_screenshots: z.number().int().min(0).max(20).default(3),
  })
  .strict();

export const mcpServerSchema = z
  .object({
    type: z.enum(['stdio', 'sse', 'http']),
    command: z.string().optional(),
    args: z.array(z.string()).default([]),
    url: httpUrl.optional(),
    env: z.record(z.string(), z.string()).default({}),
    /**
     * HTTP headers sent on every request (sse, http): NAME -> `secret:mcp.SERVER.NAME` or
     * `env:VAR` (src-shared/mcp-headers.ts); the value is a secret, like an API key
     */
    headers: z.record(z.string(), z.string().min(1)).default({}),
    /**
     * OAuth (streamable HTTP): a client id registered with the server's authorization
     * server; absent, the client registers itself (dynamic client registration)
     */
    oauth_client_id: z.string().min(1).optional(),
    /** the scope asked for at sign-in; absent, the one the server names */
    oauth_scope: z.string().min(1).optional(),
    /** seconds one tool call may take */
    timeout: z.number().positive().max(3600).default(60),
    /**
     * whether the server may ask for model completions (MCP sampling); false: the client
     * does not offer sampling to it (docs/mcp.md)
     */
    sampling: z.boolean().default(true),
    /** the `[llm.NAME]` profile its sampling requests use; absent: the run's own model */
    sampling_profile: z.string().min(1).optional(),
    /**
     * whether the client offers the session's workspace folder as its root (MCP roots);
     * false keeps the server to the folders it was started with (server-filesystem
     * replaces its command-line folders with the client's roots)
     */
    roots: z.boolean().default(true),
    /** the lowest level of `notifications/message` it sends (`logging/setLevel`) */
    log_level: z
      .enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])
      .default('info'),
  })
  .strict()
  .superRefine((server, ctx) => {
    if (server.type === 'stdio' && !server.command) {
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: 'a stdio server needs a command',
      });
    }
    if (server.type !== 'stdio' && !server.url) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `a ${server.type} server needs a url`,
      });
    }
    for (const name of Object.keys(server.headers)) {
      const problem =
        server.type === 'stdio'
          ? 'a stdio server has no HTTP headers (give it env instead)'
          : headerNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', path: ['headers', name], message: problem });
    }
    if (server.type !== 'http' && (server.oauth_client_id || server.oauth_scope)) {
      ctx.addIssue({
        code: 'custom',
        path: [server.oauth_client_id ? 'oauth_client_id' : 'oauth_scope'],
        message: 'OAuth is for streamable HTTP servers (type = "http")',
      });
    }
  });

/** Re-reports a nested profile's issue at its place under `llm`. */
function relayIssue(issue: z.core.$ZodIssue, prefix: PropertyKey[]) {
  const message =
    issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : issue.message;
  return { code: 'custom' as const, path: [...prefix, ...issue.path], message };
}

/**
 * `[llm]` mixes the default profile's scalars with named sub-tables (`[llm.manus]`), as
 * in OpenManus. It is split into `{ default, profiles }` after parsing.
 */
const llmSectionSchema = z.record(z.string(), z.unknown()).transform((section, ctx) => {
  const scalars: Record<string, unknown> = {};
  const named: Record<string, LlmProfileInput> = {};
  for (const [key, value] of Object.entries(section)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const parsed = llmProfileSchema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue(relayIssue(issue, [key]));
        continue;
      }
      named[key] = parsed.data;
    } else {
      scalars[key] = value;
    }
  }
  const parsedDefault = llmProfileSchema.safeParse(scalars);
  if (!parsedDefault.success) {
    for (const issue of parsedDefault.error.issues) ctx.addIssue(relayIssue(issue, []));
    return z.NEVER;
  }
  return { default: parsedDefault.data, profiles: named };
});

/** `[flow.planning]`: how PlanningFlow runs its plan (openmanus.md section 6). */
export const planningFlowSchema = z
  .object({
    /**
     * agents that execute steps: built-in ones and the user's (`NAME` or `NAME@VERSION`,
     * checked against WORKBENCH_HOME/agents when a flow starts: launch/flow-executors.ts);
     * a step tagged `[swe]` goes to swe, untagged ones to the run's agent
     */
    executors: z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@\d+)?$/,
            'must name an agent: a built-in one (manus, swe, browser, mcp, toolcall) or yours, as NAME or NAME@VERSION',
          ),
      )
      .min(1)
      .default(['manus', 'swe']),
    /**
     * the planner as one of the user's agents (`NAME` or `NAME@VERSION`, checked when a flow
     * starts: launch/flow-planner.ts): its system prompt and profile; absent, the flow's own
     */
    planner: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@\d+)?$/,
        'must name one of your agents (WORKBENCH_HOME/agents), as NAME or NAME@VERSION',
      )
      .optional(),
    /** extra attempts of a failing step before it is marked blocked */
    max_step_retries: z.number().int().min(0).max(10).default(1),
    /** replans allowed per run after a step is blocked */
    max_replans: z.number().int().min(0).max(10).default(2),
    /** keep one executor instance (and its memory) across steps; off by default */
    carry_memory: z.boolean().default(false),
  })
  .strict();
export type PlanningFlowSettings = z.infer<typeof planningFlowSchema>;

/** `[history]`: what the run history may keep (docs/time-travel.md). */
export const historySchema = z
  .object({
    /** checkpoints take sandbox snapshots at every step boundary; false keeps only the events */
    checkpoints: z.boolean().default(true),
    /** all runs' snapshots together; beyond it the oldest runs' snapshots are evicted */
    snapshot_budget: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'must look like 512m or 2g')
      .default('5g'),
    /** one run's snapshots; a run that would pass it stops taking them (checkpoint.limited) */
    snapshot_run_limit: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'must look like 512m or 2g')
      .default('2g'),
    /** one step's snapshot; files that would take it past this are left out (checkpoint.limited) */
    snapshot_step_limit: z
      .string()
      .regex(/^\d+(\.\d+)?[kmg]?$/i, 'must look like 512m or 2g')
      .default('1g'),
  })
  .strict();
export type HistorySettings = z.infer<typeof historySchema>;

/** `[telemetry]`: runs sent to an OpenTelemetry backend as they run (docs/telemetry.md). */
export const telemetrySchema = z
  .object({
    /** an OTLP/HTTP receiver (`http://localhost:4318` or its `/v1/traces` URL); unset: no live export */
    otlp_endpoint: z
      .string()
      .regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL')
      .optional(),
    /** HTTP headers sent with every export (a backend's API key: `env:VAR` or the value) */
    otlp_headers: z.record(z.string(), z.string()).default({}),
    /** the app (desktop and serve) takes OTLP traces on 127.0.0.1:PORT/v1/traces; unset: the desktop app takes none */
    receiver_port: z.number().int().min(1).max(65535).optional(),
    /** what senders to receiver_port must send as `Authorization: Bearer` (`env:VAR` or the value); unset: none */
    receiver_token: z.string().min(1).optional(),
  })
  .strict();
export type TelemetrySettings = z.infer<typeof telemetrySchema>;

export const configSchema = z
  .object({
    llm: llmSectionSchema.default({ default: {}, profiles: {} } as never),
    /** `[agent]` for every agent, `[agent.NAME]` for one; `[agent.nope]` is an error */
    agent: agentSectionSchema.default({}),
    sandbox: sandboxSchema.default(sandboxSchema.parse({})),
    browser: browserSchema.default(browserSchema.parse({})),
    history: historySchema.default(historySchema.parse({})),
    telemetry: telemetrySchema.default(telemetrySchema.parse({})),
    mcp: z
      .object({
        servers: z.record(z.string(), mcpServerSchema).default({}),
        /** the server whose tools the mcp agent uses, when several are configured */
        agent_server: z.string().optional(),
      })
      .strict()
      .default({ servers: {} }),
    flow: z
      .object({ planning: planningFlowSchema.default(planningFlowSchema.parse({})) })
      .strict()
      .default({ planning: planningFlowSchema.parse({}) }),
  })
  .strict();

export type WorkbenchConfig = z.infer<typeof configSchema>;
export type SandboxSettings = z.infer<typeof sandboxSchema>;
export type BrowserSettings = z.infer<typeof browserSchema>;
type ParsedMcpServer = z.infer<typeof mcpServerSchema>;
/** A server's settings; the keys with defaults may be left out by callers outside config.toml. */
export type McpServerSettings = Omit<
  ParsedMcpServer,
  'sampling' | 'log_level' | 'headers' | 'roots'
> &
  Partial<Pick<ParsedMcpServer, 'sampling' | 'log_level' | 'headers' | 'roots'>> & {
    /** where a server not from config.toml was given (the CLI's flags), for its error messages */
    givenBy?: string;
  };

/** A fully resolved LLM profile: what a model client is built from. */
export interface LlmProfile {
  name: string;
  model: string;
  baseUrl: string;
  /** resolved key (env: references already read); empty when none is set */
  apiKey: string;
  apiType: (typeof API_TYPES)[number];
  apiVersion: string;
  maxTokens: number;
  temperature: number;
  maxInputTokens: number;
  stream: boolean;
  /** `reasoning = true`: a reasoning model whatever its name (config/reasoning-model.ts) */
  reasoning?: boolean;
  timeoutMs: number;
  maxRetries: number;
  /** api_type = "scripted": the scenario file ('' or absent = the agent's bundled demo) */
  scenario?: string;
  /** US dollars per million tokens; 0 or absent: the list price, if any, applies */
  inputPrice?: number;
  outputPrice?: number;
  /** `max_concurrency`: model calls of this profile at once; absent: no cap */
  maxConcurrency?: number;
}

/** Resolved run settings of one agent. */
export interface AgentRunSettings {
  maxSteps: number;
  duplicateThreshold: number;
  maxMessages: number;
  maxObserve: number;
  toolChoice: (typeof TOOL_CHOICES)[number];
  textReplyPolicy: (typeof TEXT_REPLY_POLICIES)[number];
  /** breakpoints saved for the agent (text form) and its approval-mode tools */
  breakpoints?: string[];
  approveTools?: string[];
}

export const LLM_DEFAULTS = {
  model: 'gpt-4o',
  base_url: 'https://api.openai.com/v1',
  api_key: '',
  api_type: 'openai',
  api_version: '',
  max_tokens: 4096,
  temperature: 1.0,
  max_input_tokens: 120_000,
  stream: true,
  reasoning: false,
  timeout: 300,
  max_retries: 4,
  scenario: '',
  input_price: 0,
  output_price: 0,
  /** 0: no cap (the schema asks for at least 1 when it is set) */
  max_concurrency: 0,
} as const satisfies Required<LlmProfileInput>;

/** Run settings every agent starts from. */
const BASE_AGENT_DEFAULTS = {
  max_steps: 20,
  duplicate_threshold: 2,
  max_messages: 100,
  max_observe: 10_000,
  tool_choice: 'auto',
  text_reply_policy: 'reprompt_once',
  breakpoints: [],
  approve_tools: [],
} as const satisfies Required<Omit<AgentSettingsInput, 'llm'>>;

/** Per-agent defaults: manus/swe/browser/mcp 20 steps, the bare toolcall agent 30. */
export const AGENT_DEFAULTS: Record<
  (typeof AGENT_NAMES)[number] | 'planning',
  Required<Omit<AgentSettingsInput, 'llm'>>
> = {
  manus: BASE_AGENT_DEFAULTS,
  swe: BASE_AGENT_DEFAULTS,
  browser: BASE_AGENT_DEFAULTS,
  mcp: BASE_AGENT_DEFAULTS,
  toolcall: { ...BASE_AGENT_DEFAULTS, max_steps: 30 },
  // For PlanningFlow, max_steps is the step budget of the whole run, all executors
  // together (each executor keeps its own limit too).
  planning: { ...BASE_AGENT_DEFAULTS, max_steps: 60 },
};
