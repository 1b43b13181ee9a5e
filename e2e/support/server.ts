/**
 * The servers playwright.config.ts starts for the web specs: the scripted
 * OpenAI-compatible model server (replaying e2e/fixtures/scenarios.json) and a
 * `workbench serve` whose WORKBENCH_HOME config points every agent at it.
 */
// Below Linux's ephemeral range (32768-60999): a port the kernel hands out to some other
// process's outgoing or port-0 socket cannot take them (47814 once failed with EADDRINUSE).
export const E2E_PORT = Number(process.env['WORKBENCH_E2E_PORT'] ?? 31813);
export const SCRIPTED_PORT = Number(process.env['WORKBENCH_E2E_SCRIPTED_PORT'] ?? 31814);
export const E2E_TOKEN = 'e2e-token-0123456789abcdef';
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}/?token=${E2E_TOKEN}`;
export const SCRIPTED_URL = `http://127.0.0.1:${SCRIPTED_PORT}/v1`;
/** the model every agent uses unless a spec changes it */
export const DEFAULT_MODEL = 'gpt-4o-e2e';
/** the variable the config's `api_key = "env:..."` reads: no key is written to disk */
export const API_KEY_VAR = 'WORKBENCH_E2E_API_KEY';

export function e2eConfigToml(): string {
  return [
    '# Written by playwright.config.ts for the end-to-end specs.',
    '[llm]',
    `model = "${DEFAULT_MODEL}"`,
    `base_url = "${SCRIPTED_URL}"`,
    `api_key = "env:${API_KEY_VAR}"`,
    'api_type = "openai"',
    'max_retries = 0',
    '',
    '[sandbox]',
    // the local image built by scripts/setup-system.sh: no pull, no network
    'image = "agent-workbench/sandbox:local"',
    '',
  ].join('\n');
}
