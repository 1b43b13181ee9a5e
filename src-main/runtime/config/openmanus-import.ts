/**
 * Converts an OpenManus `config/config.toml` (openmanus.md section 5) into our sections,
 * as it is: every key we understand is taken over, everything else (`[search]`,
 * `[runflow]`, `[daytona]`, `[browser.proxy]`, keys with no meaning here) is left out
 * with a reason, never an error. Values that would not validate are left out too, so an
 * import always yields a config that loads.
 */
import type { z } from 'zod';
import { browserSchema, llmProfileShape, sandboxSchema, type LlmProfileInput } from './schema';

export interface OpenManusConversion {
  /** `[llm]` with its named profiles as sub-tables, ready to write */
  llm?: Record<string, unknown>;
  browser?: Record<string, unknown>;
  sandbox?: Record<string, unknown>;
  /** API keys found, by the table they belong to (`llm`, `llm.vision`) */
  apiKeys: { table: string; value: string }[];
  imported: string[];
  ignored: { path: string; reason: string }[];
}

const SECTION_REASONS: Record<string, string> = {
  search: 'the workbench has no web search tool',
  runflow: 'the data analysis agent is not part of the workbench',
  daytona: 'the workbench runs code in local Docker sandboxes, not Daytona',
  mcp: 'MCP servers are configured as [mcp.servers.NAME] (OpenManus used config/mcp.json)',
};

/** OpenManus [browser] keys we have no use for, and why. */
const BROWSER_IGNORED: Record<string, string> = {
  disable_security: 'the browser always runs with web security on',
  extra_chromium_args: 'extra Chromium arguments are not supported',
  wss_url: 'connecting to a remote browser is not supported',
  cdp_url: 'connecting to a remote browser is not supported',
  proxy: 'browser proxies are not supported',
  new_context_config: 'browser context settings are not supported',
};

function isTable(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function check(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'invalid value');
}

function convertProfile(
  table: Record<string, unknown>,
  path: string,
  out: OpenManusConversion,
): LlmProfileInput {
  const profile: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    const where = `${path}.${key}`;
    if (key === 'api_key') {
      if (typeof value === 'string' && value.trim() !== '') {
        out.apiKeys.push({ table: path, value: value.trim() });
        out.imported.push(where);
      } else {
        out.ignored.push({ path: where, reason: 'empty' });
      }
      continue;
    }
    if (key === 'max_input_tokens') {
      out.ignored.push({
        path: where,
        reason:
          'OpenManus uses it as a lifetime token budget; here it is a per-request context guard (default 120000)',
      });
      continue;
    }
    if (key === 'api_type') {
      const type = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (type === 'azure' || type === 'ollama') profile['api_type'] = type;
      else if (type === '' || type === 'openai') profile['api_type'] = 'openai';
      else {
        out.ignored.push({
          path: where,
          reason: `"${String(value)}" is not supported; OpenAI-compatible is used`,
        });
        continue;
      }
      out.imported.push(where);
      continue;
    }
    const schema = (llmProfileShape as Record<string, z.ZodType | undefined>)[key];
    if (!schema) {
      out.ignored.push({ path: where, reason: 'not a model setting the workbench knows' });
      continue;
    }
    const problem = check(schema, value);
    if (problem) {
      out.ignored.push({ path: where, reason: problem });
      continue;
    }
    profile[key] = value;
    out.imported.push(where);
  }
  return profile as LlmProfileInput;
}

function convertLlm(section: Record<string, unknown>, out: OpenManusConversion): void {
  const scalars: Record<string, unknown> = {};
  const llm: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    if (isTable(value)) llm[key] = convertProfile(value, `llm.${key}`, out);
    else scalars[key] = value;
  }
  Object.assign(llm, convertProfile(scalars, 'llm', out));
  out.llm = llm;
}

function convertFlat(
  section: Record<string, unknown>,
  name: 'browser' | 'sandbox',
  shape: Record<string, z.ZodType>,
  renames: Record<string, string>,
  ignoredKeys: Record<string, string>,
  out: OpenManusConversion,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    const where = `${name}.${key}`;
    if (key in ignoredKeys) {
      out.ignored.push({ path: where, reason: ignoredKeys[key] ?? 'not supported' });
      continue;
    }
    const target = renames[key] ?? key;
    const schema = shape[target];
    if (!schema) {
      out.ignored.push({ path: where, reason: 'not a setting the workbench knows' });
      continue;
    }
    if (value === null || value === '') {
      out.ignored.push({ path: where, reason: 'empty' });
      continue;
    }
    const problem = check(schema, value);
    if (problem) {
      out.ignored.push({ path: where, reason: problem });
      continue;
    }
    result[target] = value;
    out.imported.push(target === key ? where : `${where} (as ${name}.${target})`);
  }
  return result;
}

export function convertOpenManusConfig(data: Record<string, unknown>): OpenManusConversion {
  const out: OpenManusConversion = { apiKeys: [], imported: [], ignored: [] };
  for (const [section, value] of Object.entries(data)) {
    if (section === 'llm' && isTable(value)) {
      convertLlm(value, out);
    } else if (section === 'browser' && isTable(value)) {
      out.browser = convertFlat(
        value,
        'browser',
        browserSchema.shape,
        { chrome_instance_path: 'executable_path' },
        BROWSER_IGNORED,
        out,
      );
    } else if (section === 'sandbox' && isTable(value)) {
      out.sandbox = convertFlat(value, 'sandbox', sandboxSchema.shape, {}, {}, out);
    } else {
      out.ignored.push({
        path: section,
        reason: SECTION_REASONS[section] ?? 'not an OpenManus section the workbench knows',
      });
    }
  }
  return out;
}
