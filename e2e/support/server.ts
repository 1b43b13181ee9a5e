/** The `workbench serve` instance that playwright.config.ts starts for the web specs. */
export const E2E_PORT = Number(process.env['WORKBENCH_E2E_PORT'] ?? 47813);
export const E2E_TOKEN = 'e2e-token-0123456789abcdef';
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}/?token=${E2E_TOKEN}`;
