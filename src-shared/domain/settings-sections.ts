/**
 * The config sections besides the model profiles that Settings edits: `[sandbox]`,
 * `[browser]` and `[mcp.servers.NAME]` (docs/configuration.md). Each value says whether
 * config.toml sets it or it is the built-in default; saves keep the file's comments.
 */
import type { McpHeaderEdit, McpHeaderView } from '../mcp-headers';
export type { McpHeaderEdit, McpHeaderView } from '../mcp-headers';
export interface SectionField<T> {
  value: T;
  /** `file`: set in config.toml; `default`: the built-in default */
  source: 'file' | 'default';
}

export interface SandboxSectionValues {
  use_sandbox: boolean;
  image: string;
  memory_limit: string;
  workspace_limit: string;
  cpu_limit: number;
  pids_limit: number;
  timeout: number;
  network_enabled: boolean;
}
export type SandboxSectionKey = keyof SandboxSectionValues;
export const SANDBOX_SECTION_KEYS = [
  'image',
  'use_sandbox',
  'network_enabled',
  'memory_limit',
  'cpu_limit',
  'pids_limit',
  'timeout',
  'workspace_limit',
] as const satisfies readonly SandboxSectionKey[];

export interface BrowserSectionValues {
  headless: boolean;
  /** '' = WORKBENCH_CHROMIUM, else the system Chromium */
  executable_path: string;
  max_content_length: number;
  keep_screenshots: number;
}
export type BrowserSectionKey = keyof BrowserSectionValues;
export const BROWSER_SECTION_KEYS = [
  'headless',
  'executable_path',
  'max_content_length',
  'keep_screenshots',
] as const satisfies readonly BrowserSectionKey[];

export interface TelemetrySectionValues {
  /** '' = no live export */
  otlp_endpoint: string;
  /** 0 = the desktop app takes no traces (serve still does on its own port) */
  receiver_port: number;
}
export type TelemetrySectionKey = keyof TelemetrySectionValues;
export const TELEMETRY_SECTION_KEYS = [
  'otlp_endpoint',
  'receiver_port',
] as const satisfies readonly TelemetrySectionKey[];

export const MCP_SERVER_TYPES = ['stdio', 'sse', 'http'] as const;
export type McpServerType = (typeof MCP_SERVER_TYPES)[number];

/** One `[mcp.servers.NAME]` as it is edited (and shown: env values included, they are the user's). */
export interface McpServerInput {
  type: McpServerType;
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
  /** seconds per tool call */
  timeout?: number;
  /**
   * sse, http: the HTTP headers; each value is write-only like an API key (stored in the
   * secret store, config.toml says `secret:mcp.NAME.HEADER`); a header left out is removed
   */
  headers?: Record<string, McpHeaderEdit>;
}

/** A configured server as the UI sees it: its headers' names, never their values. */
export interface McpServerView extends Omit<McpServerInput, 'headers'> {
  name: string;
  headers?: McpHeaderView[];
}

export interface SectionsView {
  sandbox: { [K in SandboxSectionKey]: SectionField<SandboxSectionValues[K]> };
  browser: { [K in BrowserSectionKey]: SectionField<BrowserSectionValues[K]> };
  /** `[telemetry]` (docs/telemetry.md); its headers and receiver token are edited in the file */
  telemetry: { [K in TelemetrySectionKey]: SectionField<TelemetrySectionValues[K]> };
  mcp: {
    servers: McpServerView[];
    /** `[mcp] agent_server`: the mcp agent's server when several are configured */
    agentServer: string | null;
  };
}

/** `null` resets a key to its default (removes it from the file). */
export type SandboxSectionEdits = { [K in SandboxSectionKey]?: SandboxSectionValues[K] | null };
export type BrowserSectionEdits = { [K in BrowserSectionKey]?: BrowserSectionValues[K] | null };
export type TelemetrySectionEdits = {
  [K in TelemetrySectionKey]?: TelemetrySectionValues[K] | null;
};

export interface SectionsSaveInput {
  sandbox?: SandboxSectionEdits;
  browser?: BrowserSectionEdits;
  telemetry?: TelemetrySectionEdits;
  mcp?: {
    /** NAME -> the server (added or replaced), or null to remove it */
    servers?: Record<string, McpServerInput | null>;
    agentServer?: string | null;
  };
}

export interface McpTestInput {
  name: string;
  server: McpServerInput;
}

export interface McpTestResult {
  ok: boolean;
  /** the server's tools, as the agents will see them */
  tools: { name: string; description: string }[];
  message: string;
  latencyMs: number;
}

export interface SandboxImagesView {
  /** tagged images on the Docker engine (every engine that answers), newest first */
  images: { tag: string; sizeBytes: number; createdAt: number }[];
  /** the engine could not be asked */
  error?: string;
  /** `[sandbox] engines` as they answer now; absent when the list is empty (one engine) */
  engines?: EngineStatusRow[];
}

/** One engine of `[sandbox] engines`, for Settings → Sandbox. */
export interface EngineStatusRow {
  /** unix:///..., tcp://host:port (TLS), ssh://user@host:port, or DOCKER_HOST */
  endpoint: string;
  /** the engine's version when it answers */
  version?: string;
  /** why it does not answer */
  error?: string;
  cpus?: number;
  memoryBytes?: number;
  /** every running container there, this app's or not */
  runningContainers?: number;
  /** this app's sandboxes on it now */
  ours: number;
  maxContainers?: number;
}
