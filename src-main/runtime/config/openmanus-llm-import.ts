/**
 * OpenManus `[llm]` and `[llm.NAME]` tables into our model profiles. Every key we
 * understand is taken over; what needs translating is translated and said so:
 *
 * - Azure: OpenManus's `base_url = "ENDPOINT/openai/deployments/NAME"` becomes the
 *   endpoint, and `model` the deployment NAME (our client routes by `model`; issue 16
 *   item 1). An `api_version` that is not an Azure version (the example's placeholder
 *   "AZURE API VERSION") is left out, so the default version is used.
 * - `api_type = "aws"` (Amazon Bedrock's Converse API) is refused with what to do: the
 *   workbench speaks the chat-completions protocol only, and keeping the key and model
 *   with the default OpenAI URL (what the import used to do) sends a Bedrock model name
 *   and key to OpenAI.
 * - The examples' placeholders (import-placeholders.ts): a placeholder key is not stored
 *   (runs use the demo model and say so), a placeholder or invalid base_url refuses the
 *   import (dropping it pointed the profile at api.openai.com).
 * - `max_input_tokens` is a lifetime budget there and a per-request guard here: left out.
 */
import type { z } from 'zod';
import { isAzureApiVersion, splitAzureBaseUrl } from './azure-url';
import { isPlaceholderKey, isPlaceholderUrl } from './import-placeholders';
import { llmProfileShape, type LlmProfileInput } from './schema';

export interface ImportReport {
  /** API keys found, by the table they belong to (`llm`, `llm.vision`) */
  apiKeys: { table: string; value: string }[];
  imported: string[];
  ignored: { path: string; reason: string }[];
}

/** Why an import cannot be done as it is; nothing is written. */
export class ImportRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefused';
  }
}

const AWS_REFUSAL = (path: string) =>
  `[${path}] api_type = "aws" (Amazon Bedrock) is not supported: the workbench talks to models ` +
  'through the OpenAI chat-completions protocol only. Put an OpenAI-compatible gateway in front ' +
  'of Bedrock (for example Bedrock Access Gateway or LiteLLM), or use another provider, then set ' +
  `api_type = "openai" and its base_url in [${path}] and import again. Nothing was imported.`;

function isTable(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function check(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'invalid value');
}

function apiTypeOf(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * One profile table. `inheritedType` is the `[llm]` api_type: OpenManus merges a named
 * profile over `[llm]`, so `[llm.vision]` of an Azure config is Azure too.
 */
function convertProfile(
  table: Record<string, unknown>,
  path: string,
  inheritedType: string,
  report: ImportReport,
): LlmProfileInput {
  const type = 'api_type' in table ? apiTypeOf(table['api_type']) : inheritedType;
  if (type === 'aws') throw new ImportRefused(AWS_REFUSAL(path));
  const profile: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    const where = `${path}.${key}`;
    if (key === 'api_key') {
      if (typeof value === 'string' && isPlaceholderKey(value)) {
        report.ignored.push({
          path: where,
          reason: `${JSON.stringify(value)} is the example's placeholder, not a key: runs use the built-in demo model until you set the key (Settings, or api_key = "env:NAME" in [${path}])`,
        });
      } else if (typeof value === 'string' && value.trim() !== '') {
        report.apiKeys.push({ table: path, value: value.trim() });
        report.imported.push(where);
      } else {
        report.ignored.push({ path: where, reason: 'empty' });
      }
      continue;
    }
    if (key === 'max_input_tokens') {
      report.ignored.push({
        path: where,
        reason:
          'OpenManus uses it as a lifetime token budget; here it is a per-request context guard (default 120000)',
      });
      continue;
    }
    if (key === 'api_type') {
      if (type === 'azure' || type === 'ollama') profile['api_type'] = type;
      else if (type === '' || type === 'openai') profile['api_type'] = 'openai';
      else {
        report.ignored.push({
          path: where,
          reason: `"${String(value)}" is an OpenAI-compatible provider here: api_type "openai" (the default) is used with its base_url`,
        });
        continue;
      }
      report.imported.push(where);
      continue;
    }
    if (key === 'api_version' && type === 'azure' && !isAzureApiVersion(String(value))) {
      report.ignored.push({
        path: where,
        reason: `${JSON.stringify(value)} is not an Azure api-version (like 2024-10-21); the default version is used`,
      });
      continue;
    }
    const schema = (llmProfileShape as Record<string, z.ZodType | undefined>)[key];
    if (!schema) {
      report.ignored.push({ path: where, reason: 'not a model setting the workbench knows' });
      continue;
    }
    if (key === 'base_url' && typeof value === 'string' && isPlaceholderUrl(value)) {
      throw new ImportRefused(
        `[${path}] base_url = ${JSON.stringify(value)} is still the example's placeholder. Put your endpoint there (for Azure: https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT) and import again. Nothing was imported.`,
      );
    }
    const problem = check(schema, value);
    if (problem && key === 'base_url') {
      // dropped, the profile would silently talk to api.openai.com with this key
      throw new ImportRefused(
        `[${path}] base_url = ${JSON.stringify(value)}: ${problem}. Without it the profile would send its key to api.openai.com; fix the URL and import again. Nothing was imported.`,
      );
    }
    if (problem) {
      report.ignored.push({ path: where, reason: problem });
      continue;
    }
    profile[key] = value;
    report.imported.push(where);
  }
  if (type === 'azure' && typeof profile['base_url'] === 'string') {
    splitAzureDeployment(profile, path, report);
  }
  return profile as LlmProfileInput;
}

/** OpenManus's ENDPOINT/openai/deployments/NAME: our base_url is the endpoint, model is NAME. */
function splitAzureDeployment(
  profile: Record<string, unknown>,
  path: string,
  report: ImportReport,
): void {
  const { endpoint, deployment } = splitAzureBaseUrl(profile['base_url'] as string);
  profile['base_url'] = endpoint;
  const at = report.imported.indexOf(`${path}.base_url`);
  if (!deployment) return;
  const model = profile['model'];
  profile['model'] = deployment;
  report.imported[at] =
    `${path}.base_url (as the Azure endpoint ${endpoint}, and its deployment "${deployment}" as ${path}.model${typeof model === 'string' && model !== deployment ? `; the model name "${model}" is not needed: Azure routes by deployment` : ''})`;
  const modelAt = report.imported.indexOf(`${path}.model`);
  if (modelAt >= 0) report.imported.splice(modelAt, 1);
}

/** `[llm]` with its named profiles as sub-tables, ready to write. */
export function convertLlmSection(
  section: Record<string, unknown>,
  report: ImportReport,
): Record<string, unknown> {
  const scalars: Record<string, unknown> = {};
  const named: [string, Record<string, unknown>][] = [];
  for (const [key, value] of Object.entries(section)) {
    if (isTable(value)) named.push([key, value]);
    else scalars[key] = value;
  }
  const inherited = apiTypeOf(scalars['api_type']);
  const llm: Record<string, unknown> = {};
  for (const [key, value] of named)
    llm[key] = convertProfile(value, `llm.${key}`, inherited, report);
  Object.assign(llm, convertProfile(scalars, 'llm', '', report));
  return llm;
}
