/**
 * The config service: reads config.toml, answers the UI's per-agent view, and writes
 * edits and imports. Every write is validated first (a save that fails validation
 * never replaces the last good file) and written atomically. Edits change only the
 * lines they touch, so the user's comments survive a save from the UI. API keys set
 * from the UI go to the secret store; config.toml keeps a `secret:NAME` reference.
 */
import { copyFileSync, existsSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { stringify as stringifyToml } from 'smol-toml';
import type {
  ConfigImportInput,
  ConfigAgentName,
  ConfigImportResult,
  ConfigSaveInput,
  ConfigTarget,
  ConfigView,
  ConnectionTestInput,
  McpServerInput,
  ProfileEdit,
  SectionsSaveInput,
} from '@shared/ipc';
import { profileOfTarget } from '@shared/ipc';
import { writeFileAtomic } from './atomic-write';
import { buildConfigView } from './config-view';
import { configWarnings } from './config-warnings';
import {
  ConfigError,
  loadConfigFile,
  parseTomlText,
  readConfigText,
  validateConfigData,
} from './load';
import { planImport } from './import-plan';
import { planProfileEdit, ProfileEditError } from './profile-edits';
import { resolveLlmProfile, resolveNamedProfile, resolveSecret } from './resolve';
import { configSchema, type LlmProfile, type WorkbenchConfig } from './schema';
import { SECRET_REF_PREFIX, type SecretStore } from './secrets';
import { applyEdits } from './apply-edits';
import { OAUTH_SECRET_PARTS, oauthSecretName } from '@shared/mcp-headers';
import { HeaderEditError, planHeaderEdits, type HeaderPlan } from './mcp-header-edits';
import { getPath, type TomlEdit, type TomlValue } from './toml-document';

export interface ConfigServiceOptions {
  file: string;
  secrets: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** where warnings about a loaded config go (each said once); default stderr */
  onWarning?: (message: string) => void;
}

type RawTable = Record<string, unknown>;

type Edit = TomlEdit;

export class ConfigService {
  private readonly listeners = new Set<(view: ConfigView) => void>();
  readonly file: string;
  readonly secrets: SecretStore;
  private readonly env: NodeJS.ProcessEnv;
  private readonly onWarning: (message: string) => void;
  private readonly warned = new Set<string>();

  constructor(options: ConfigServiceOptions) {
    this.file = options.file;
    this.secrets = options.secrets;
    this.env = options.env ?? process.env;
    this.onWarning = options.onWarning ?? ((m) => console.error(`[workbench] warning: ${m}`));
  }

  /** The validated config; throws ConfigError (with key paths and lines) when it is not. */
  load(): WorkbenchConfig {
    const config = loadConfigFile(this.file);
    for (const warning of configWarnings(this.file, config)) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.onWarning(warning);
    }
    return config;
  }

  /** What the user should know about the config as it is now (shown with the settings). */
  warnings(config: WorkbenchConfig): string[] {
    const secretsProblem = this.secrets.problem;
    return [...configWarnings(this.file, config), ...(secretsProblem ? [secretsProblem] : [])];
  }

  view(): ConfigView {
    let config: WorkbenchConfig;
    let error: ConfigView['error'];
    let raw: RawTable | undefined;
    try {
      config = this.load();
      raw = parseTomlText(this.readText(), this.file);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      config = configSchema.parse({});
      error = { message: e.message, issues: e.issues };
    }
    const warnings = this.warnings(config);
    return buildConfigView(config, {
      file: this.file,
      ...(warnings.length > 0 ? { warnings } : {}),
      exists: existsSync(this.file),
      secretStorage: this.secrets.kind,
      secretStatus: (name) => this.secrets.status(name),
      env: this.env,
      ...(error ? { error } : {}),
      ...(raw ? { raw } : {}),
    });
  }

  onChange(listener: (view: ConfigView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the listeners when config.toml changes on disk by other hands (an editor,
   * another instance), so an open settings page shows what is really there. Polls
   * the file's stat: cheap, works on every file system, keeps no process alive.
   */
  watch(intervalMs = 1000): () => void {
    const onStat = (current: Stats, previous: Stats) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      this.changed();
    };
    watchFile(this.file, { interval: intervalMs, persistent: false }, onStat);
    return () => unwatchFile(this.file, onStat);
  }

  /** The profile a run of this agent would use, with its key resolved. */
  resolveProfile(target: ConfigTarget, config = this.load()): LlmProfile {
    const profile = profileOfTarget(target);
    if (profile !== null) return this.resolveNamedProfile(profile, config);
    if (target === 'default') {
      // [llm] alone: an agent with no profile of its own and no [agent] choice.
      const llmOnly = { ...config, agent: {}, llm: { ...config.llm, profiles: {} } };
      return resolveLlmProfile(llmOnly, 'toolcall', this.env, this.secrets);
    }
    return resolveLlmProfile(config, target as ConfigAgentName, this.env, this.secrets);
  }

  /** A key as config.toml writes it (`env:NAME`, `secret:NAME`, the key), resolved; '' if none. */
  resolveApiKey(raw: string): string {
    return resolveSecret(raw, this.env, this.secrets);
  }

  /** The profile `[llm.NAME]` (`default`: `[llm]`), as the debugger's model change uses it. */
  resolveNamedProfile(name: string, config = this.load()): LlmProfile {
    if (name !== 'default' && !config.llm.profiles[name]) {
      const known = ['default', ...Object.keys(config.llm.profiles)].join(', ');
      throw new Error(`There is no profile [llm.${name}] in config.toml (profiles: ${known})`);
    }
    return resolveNamedProfile(config, name === 'default' ? null : name, this.env, this.secrets);
  }

  /**
   * Every API key value this config can resolve to, so runs can keep them out of their
   * events and logs (stored secrets, inline keys, and env: references).
   */
  /** `secret:NAME` / `env:VAR` (an MCP header) to its value; '' when there is none. */
  resolveRef(ref: string): string {
    return resolveSecret(ref, this.env, this.secrets);
  }

  secretValues(): string[] {
    const values = new Set(this.secrets.values());
    let config: WorkbenchConfig;
    try {
      config = this.load();
    } catch {
      return [...values];
    }
    for (const profile of [config.llm.default, ...Object.values(config.llm.profiles)]) {
      if (profile.api_key) {
        const value = resolveSecret(profile.api_key, this.env, this.secrets);
        if (value) values.add(value);
      }
    }
    // an MCP server's header values are credentials too (env: ones are not in the store)
    for (const server of Object.values(config.mcp.servers)) {
      for (const ref of Object.values(server.headers)) {
        const value = resolveSecret(ref, this.env, this.secrets);
        if (value) values.add(value);
      }
    }
    return [...values];
  }

  save(input: ConfigSaveInput): ConfigView {
    const text = this.readText();
    const raw = parseTomlText(text, this.file);
    const table = this.llmTable(raw, input.target);
    const edits: Edit[] = [];
    for (const [key, value] of Object.entries(input.llm ?? {})) {
      edits.push({ table, key, value: value ?? undefined });
    }
    const agent = agentOfTarget(input.target);
    if (input.settings && agent) {
      for (const [key, value] of Object.entries(input.settings)) {
        edits.push({ table: ['agent', agent], key, value: value ?? undefined });
      }
    }
    const secretName = table.join('.');
    const previousKey = getPath(raw, [...table, 'api_key']);
    if (input.apiKey) {
      const value =
        input.apiKey.action === 'set'
          ? `${SECRET_REF_PREFIX}${secretName}`
          : input.apiKey.action === 'env'
            ? `env:${input.apiKey.name}`
            : undefined;
      edits.push({ table, key: 'api_key', value });
    }
    const next = applyEdits(text, raw, edits, this.file);
    // Validate before anything is stored: a refused save changes nothing.
    validateConfigData(next.raw, next.text, this.file);
    if (input.apiKey?.action === 'set') this.secrets.set(secretName, input.apiKey.value);
    writeFileAtomic(this.file, next.text, 0o600);
    // A stored key that config.toml no longer points to is deleted, not left behind.
    const keptRef = input.apiKey?.action === 'set' ? `${SECRET_REF_PREFIX}${secretName}` : null;
    if (
      input.apiKey &&
      typeof previousKey === 'string' &&
      previousKey.startsWith(SECRET_REF_PREFIX) &&
      previousKey !== keptRef
    ) {
      this.secrets.delete(previousKey.slice(SECRET_REF_PREFIX.length));
    }
    return this.changed();
  }

  /**
   * Creates, duplicates, renames or deletes a profile, or assigns one to an agent
   * (profile-edits.ts says what each changes). Validated before anything is written;
   * a profile's stored key is copied before the file names it and deleted only once
   * nothing does, so a crash between the two leaves a key too many, never one missing.
   */
  editProfile(edit: ProfileEdit): ConfigView {
    const text = this.readText();
    const raw = parseTomlText(text, this.file);
    const config = validateConfigData(raw, text, this.file);
    const plan = planProfileEdit(raw, config, edit);
    const next = applyEdits(text, raw, plan.edits, this.file);
    validateConfigData(next.raw, next.text, this.file);
    for (const { from, to } of plan.copySecrets) this.secrets.copy(from, to);
    writeFileAtomic(this.file, next.text, 0o600);
    for (const name of plan.deleteSecrets) this.secrets.delete(name);
    return this.changed();
  }

  /**
   * Saves `[sandbox]`, `[browser]`, `[telemetry]` and `[mcp]` edits like `save`: validated first, written
   * atomically, comments kept. `null` removes a key (back to its default) or a server.
   */
  saveSections(input: SectionsSaveInput): ConfigView {
    const text = this.readText();
    const raw = parseTomlText(text, this.file);
    const edits: Edit[] = [];
    for (const [key, value] of Object.entries(input.sandbox ?? {})) {
      edits.push({ table: ['sandbox'], key, value: value ?? undefined });
    }
    for (const [key, value] of Object.entries(input.browser ?? {})) {
      // An empty path means "the default browser": the key is removed.
      const cleared = key === 'executable_path' && value === '';
      edits.push({ table: ['browser'], key, value: cleared ? undefined : (value ?? undefined) });
    }
    for (const [key, value] of Object.entries(input.telemetry ?? {})) {
      // '' (no endpoint) and 0 (no receiver port) mean "unset": the key is removed
      const cleared = value === '' || value === 0;
      edits.push({ table: ['telemetry'], key, value: cleared ? undefined : (value ?? undefined) });
    }
    const store: HeaderPlan['store'] = [];
    const drop: string[] = [];
    for (const [name, server] of Object.entries(input.mcp?.servers ?? {})) {
      // Replaced whole (keys the edit left out must go), written as [mcp.servers.NAME].
      edits.push({ table: ['mcp', 'servers'], key: name, value: undefined });
      // Header values go to the secret store; config.toml gets their references.
      const headers = this.headerPlan(raw, name, server?.headers, 'save');
      store.push(...headers.store);
      drop.push(...headers.drop);
      // a removed server's sign-in goes with it
      if (!server) drop.push(...OAUTH_SECRET_PARTS.map((part) => oauthSecretName(name, part)));
      const table = server ? mcpTable(server, getPath(raw, ['mcp', 'servers', name])) : {};
      if (Object.keys(headers.headers).length > 0) table['headers'] = headers.headers;
      for (const [key, value] of Object.entries(table)) {
        edits.push({ table: ['mcp', 'servers', name], key, value });
      }
    }
    if (input.mcp?.agentServer !== undefined) {
      edits.push({
        table: ['mcp'],
        key: 'agent_server',
        value: input.mcp.agentServer ?? undefined,
      });
    }
    const next = applyEdits(text, raw, edits, this.file);
    validateConfigData(next.raw, next.text, this.file);
    for (const { name, value } of store) this.secrets.set(name, value);
    writeFileAtomic(this.file, next.text, 0o600);
    for (const name of drop) this.secrets.delete(name);
    return this.changed();
  }

  /**
   * A server as Settings' "Test" uses it: header values typed in are used as typed (in
   * memory only), the others are read from their saved references.
   */
  previewMcpHeaders(name: string, edits: McpServerInput['headers']): Record<string, string> {
    const raw = parseTomlText(this.readText(), this.file);
    return this.headerPlan(raw, name, edits, 'test').headers;
  }

  private headerPlan(
    raw: RawTable,
    name: string,
    edits: McpServerInput['headers'],
    mode: 'save' | 'test',
  ): HeaderPlan {
    const saved = getPath(raw, ['mcp', 'servers', name, 'headers']);
    const savedRefs =
      typeof saved === 'object' && saved !== null && !Array.isArray(saved)
        ? Object.fromEntries(
            Object.entries(saved as Record<string, unknown>).filter(
              (e): e is [string, string] => typeof e[1] === 'string',
            ),
          )
        : undefined;
    try {
      return planHeaderEdits(name, edits, savedRefs, mode);
    } catch (error) {
      if (!(error instanceof HeaderEditError)) throw error;
      throw new ConfigError(`${this.file}: ${error.message}`, this.file, [
        { path: error.path, message: error.message.slice(error.path.length + 2) },
      ]);
    }
  }

  /** The profile a connection test uses: the saved one with unsaved edits on top. */
  previewProfile(input: ConnectionTestInput): LlmProfile {
    const text = this.readText();
    const raw = parseTomlText(text, this.file);
    const table = this.llmTable(raw, input.target);
    const edits: Edit[] = Object.entries(input.llm ?? {}).map(([key, value]) => ({
      table,
      key,
      value: value ?? undefined,
    }));
    let typedKey: string | undefined;
    if (input.apiKey?.action === 'set') typedKey = input.apiKey.value;
    else if (input.apiKey) {
      edits.push({
        table,
        key: 'api_key',
        value: input.apiKey.action === 'env' ? `env:${input.apiKey.name}` : undefined,
      });
    }
    const next = applyEdits(text, raw, edits, this.file);
    const config = validateConfigData(next.raw, next.text, this.file);
    const profile = this.resolveProfile(input.target, config);
    return typedKey !== undefined ? { ...profile, apiKey: typedKey } : profile;
  }

  importOpenManus(input: ConfigImportInput): ConfigImportResult {
    const source = input.fileName ?? 'the OpenManus config';
    const currentText = this.readText();
    let current: RawTable = {};
    try {
      current = parseTomlText(currentText, this.file);
    } catch {
      // The current file is broken: the import replaces it (a backup is kept below).
    }
    const plan = planImport(input.content, source, current);
    const header = `# Imported from ${input.fileName ?? 'an OpenManus config'} on ${new Date().toISOString()}\n`;
    const text = header + stringifyToml(plan.next);
    validateConfigData(parseTomlText(text, this.file), text, this.file);
    const result = { imported: plan.imported, ignored: plan.ignored };
    if (input.dryRun) {
      return { ...result, isSaved: false, config: this.view() };
    }
    for (const secret of plan.secrets) this.secrets.set(secret.name, secret.value);
    // A backup only of a file that exists, and the answer says whether there is one.
    const backupFile = existsSync(this.file) ? `${this.file}.bak` : undefined;
    if (backupFile) copyFileSync(this.file, backupFile);
    writeFileAtomic(this.file, text, 0o600);
    return {
      ...result,
      isSaved: true,
      ...(backupFile ? { backupFile } : {}),
      config: this.changed(),
    };
  }

  private readText(): string {
    return readConfigText(this.file);
  }

  /**
   * `[llm]` for the default target, `[llm.NAME]` for `profile:NAME`; else the profile the
   * agent uses, `[llm.AGENT]` if none.
   */
  private llmTable(raw: RawTable, target: ConfigTarget): string[] {
    if (target === 'default') return ['llm'];
    const profile = profileOfTarget(target);
    if (profile !== null) {
      if (!isTableAt(raw, ['llm', profile])) {
        throw new ProfileEditError(
          'not_found',
          `There is no profile [llm.${profile}] in config.toml`,
        );
      }
      return ['llm', profile];
    }
    const chosen = getPath(raw, ['agent', target, 'llm']);
    if (typeof chosen === 'string' && chosen.trim() !== '') return ['llm', chosen.trim()];
    return ['llm', target];
  }

  private changed(): ConfigView {
    const view = this.view();
    for (const listener of this.listeners) {
      try {
        listener(view);
      } catch (error) {
        console.error(`[workbench] config listener failed: ${(error as Error).message}`);
      }
    }
    return view;
  }
}

/** The agent a page's target is, or null for `[llm]` and profile pages. */
function agentOfTarget(target: ConfigTarget): ConfigAgentName | null {
  return target === 'default' || profileOfTarget(target) !== null
    ? null
    : (target as ConfigAgentName);
}

function isTableAt(raw: RawTable, path: readonly string[]): boolean {
  const value = getPath(raw, path);
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Keys of `[mcp.servers.NAME]` the Settings form does not edit: a save keeps them as they
 * were (a save used to drop them, turning sampling and roots back on and losing the
 * server's OAuth client id).
 */
const KEPT_SERVER_KEYS = [
  'sampling',
  'sampling_profile',
  'roots',
  'log_level',
  'oauth_client_id',
  'oauth_scope',
] as const;

/** An MCP server as its TOML table: only the keys that say something. */
function mcpTable(server: McpServerInput, saved: unknown): Record<string, TomlValue> {
  const table: Record<string, TomlValue> = { type: server.type };
  if (typeof saved === 'object' && saved !== null && !Array.isArray(saved)) {
    for (const key of KEPT_SERVER_KEYS) {
      const value = (saved as Record<string, unknown>)[key];
      if (value !== undefined) table[key] = value as TomlValue;
    }
  }
  if (server.command) table['command'] = server.command;
  if (server.args && server.args.length > 0) table['args'] = server.args;
  if (server.url) table['url'] = server.url;
  if (server.timeout !== undefined) table['timeout'] = server.timeout;
  if (server.env && Object.keys(server.env).length > 0) table['env'] = server.env;
  return table;
}
