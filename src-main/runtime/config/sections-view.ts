/**
 * `[sandbox]`, `[browser]`, `[telemetry]` and `[mcp]` as Settings shows them: each value with whether
 * config.toml sets it or it is the built-in default, and every MCP server.
 */
import {
  BROWSER_SECTION_KEYS,
  TELEMETRY_SECTION_KEYS,
  SANDBOX_SECTION_KEYS,
  type McpServerView,
  type SectionsView,
} from '@shared/ipc';
import type { WorkbenchConfig } from './schema';

type Raw = Record<string, unknown>;

function table(raw: Raw | undefined, key: string): Raw {
  const value = raw?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {};
}

export function buildSectionsView(
  config: WorkbenchConfig,
  raw: Raw | undefined,
  headerIsSet: (ref: string) => boolean = () => false,
): SectionsView {
  const rawSandbox = table(raw, 'sandbox');
  const rawBrowser = table(raw, 'browser');
  const sandbox = Object.fromEntries(
    SANDBOX_SECTION_KEYS.map((key) => [
      key,
      { value: config.sandbox[key], source: key in rawSandbox ? 'file' : 'default' },
    ]),
  ) as SectionsView['sandbox'];
  const browserValues = {
    ...config.browser,
    executable_path: config.browser.executable_path ?? '',
  };
  const browser = Object.fromEntries(
    BROWSER_SECTION_KEYS.map((key) => [
      key,
      { value: browserValues[key], source: key in rawBrowser ? 'file' : 'default' },
    ]),
  ) as SectionsView['browser'];
  const rawTelemetry = table(raw, 'telemetry');
  const telemetryValues = {
    otlp_endpoint: config.telemetry.otlp_endpoint ?? '',
    receiver_port: config.telemetry.receiver_port ?? 0,
  };
  const telemetry = Object.fromEntries(
    TELEMETRY_SECTION_KEYS.map((key) => [
      key,
      { value: telemetryValues[key], source: key in rawTelemetry ? 'file' : 'default' },
    ]),
  ) as SectionsView['telemetry'];
  const servers: McpServerView[] = Object.entries(config.mcp.servers)
    .map(([name, s]) => ({
      name,
      type: s.type,
      ...(s.command !== undefined ? { command: s.command } : {}),
      args: s.args,
      ...(s.url !== undefined ? { url: s.url } : {}),
      env: s.env,
      timeout: s.timeout,
      // names and whether each can be read, never the values (they are credentials)
      ...(Object.keys(s.headers).length > 0
        ? {
            headers: Object.entries(s.headers).map(([header, ref]) => ({
              name: header,
              isSet: headerIsSet(ref),
              ...(ref.startsWith('env:') ? { env: ref.slice(4) } : {}),
            })),
          }
        : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    sandbox,
    browser,
    telemetry,
    mcp: { servers, agentServer: config.mcp.agent_server ?? null },
  };
}
