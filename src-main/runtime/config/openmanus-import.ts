/**
 * Converts an OpenManus `config/config.toml` (openmanus.md section 5) into our sections,
 * as it is: every key we understand is taken over, everything else (`[search]`,
 * `[runflow]`, `[daytona]`, `[browser.proxy]`, keys with no meaning here) is left out
 * with a reason, never an error. Values that would not validate are left out too, so an
 * import always yields a config that loads. The one refusal: a profile with
 * `api_type = "aws"` (see openmanus-llm-import.ts). `config/mcp.json` is converted by
 * openmanus-mcp-import.ts.
 */
import type { z } from 'zod';
import { convertLlmSection, type ImportReport } from './openmanus-llm-import';
import { agentSettingsSchema, browserSchema, sandboxSchema } from './schema';

export { ImportRefused } from './openmanus-llm-import';

export interface OpenManusConversion extends ImportReport {
  /** `[llm]` with its named profiles as sub-tables, ready to write */
  llm?: Record<string, unknown>;
  browser?: Record<string, unknown>;
  sandbox?: Record<string, unknown>;
  /** `[agent]` settings of every agent, and `[agent.NAME] llm` choices the import made */
  agent?: Record<string, unknown>;
}

const SECTION_REASONS: Record<string, string> = {
  search: 'the workbench has no web search tool',
  runflow: 'the data analysis agent is not part of the workbench',
  daytona: 'the workbench runs code in local Docker sandboxes, not Daytona',
  mcp: "server_reference names OpenManus's own Python server; import config/mcp.json for your MCP servers (workbench config import-openmanus config/mcp.json)",
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

/** The agent that works from screenshots, and so gets OpenManus's `[llm.vision]`. */
const VISION_AGENT = 'browser';

function isTable(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function check(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'invalid value');
}

function convertFlat(
  section: Record<string, unknown>,
  name: string,
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

/**
 * `[agent] max_steps` (how OpenManus users set the step limit its code hard-codes) is a
 * setting of every agent here; sub-tables `[agent.NAME]` are taken as they are.
 */
function convertAgent(section: Record<string, unknown>, out: OpenManusConversion): void {
  const scalars: Record<string, unknown> = {};
  const agent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    if (isTable(value)) {
      const converted = convertFlat(value, `agent.${key}`, agentSettingsSchema.shape, {}, {}, out);
      if (Object.keys(converted).length > 0) agent[key] = converted;
    } else scalars[key] = value;
  }
  const shared = convertFlat(scalars, 'agent', agentSettingsSchema.shape, {}, {}, out);
  out.agent = { ...shared, ...agent };
}

/** `[llm.vision]` is a profile no OpenManus agent used: the browser agent uses it here. */
function useVisionProfile(out: OpenManusConversion): void {
  const vision = out.llm?.['vision'];
  if (!isTable(vision) || Object.keys(vision).length === 0) return;
  const agent = (out.agent ??= {});
  const own = isTable(agent[VISION_AGENT]) ? agent[VISION_AGENT] : {};
  if (own['llm'] !== undefined) return;
  agent[VISION_AGENT] = { ...own, llm: 'vision' };
  out.imported.push(
    `llm.vision (as the profile of the ${VISION_AGENT} agent, which works from screenshots: [agent.${VISION_AGENT}] llm = "vision")`,
  );
}

export function convertOpenManusConfig(data: Record<string, unknown>): OpenManusConversion {
  const out: OpenManusConversion = { apiKeys: [], imported: [], ignored: [] };
  for (const [section, value] of Object.entries(data)) {
    if (section === 'llm' && isTable(value)) {
      out.llm = convertLlmSection(value, out);
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
    } else if (section === 'agent' && isTable(value)) {
      convertAgent(value, out);
    } else {
      out.ignored.push({
        path: section,
        reason: SECTION_REASONS[section] ?? 'not an OpenManus section the workbench knows',
      });
    }
  }
  useVisionProfile(out);
  return out;
}
