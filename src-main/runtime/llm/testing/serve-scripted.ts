/**
 * Standalone scripted OpenAI-compatible server, for Playwright specs and manual tries:
 *
 *   node --import tsx src-main/runtime/llm/testing/serve-scripted.ts \
 *     --scenarios e2e/fixtures/scenarios.json [--port 0] [--host 127.0.0.1] [--api-key KEY]
 *
 * The scenario format is documented at the top of scenario-script.ts. Once listening it
 * prints one line to stdout, `SCRIPTED_OPENAI_URL=http://127.0.0.1:PORT/v1` (use it as
 * `base_url`), and serves until SIGINT/SIGTERM (with --exit-on-stdin-close also when its
 * stdin closes, so a parent that dies does not leave it behind). GET /_scripted/requests
 * lists what the clients sent; POST /_scripted/reset forgets it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseScenarioFile, scenarioScript } from './scenario-script';
import { ScriptedOpenAiServer } from './scripted-openai-server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenarios: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
    },
  });
  if (!values.scenarios) {
    process.stderr.write('serve-scripted: --scenarios FILE is required\n');
    process.exit(2);
  }
  let text: string;
  try {
    text = readFileSync(values.scenarios, 'utf8');
  } catch (error) {
    process.stderr.write(`serve-scripted: cannot read ${values.scenarios}: ${String(error)}\n`);
    process.exit(2);
  }
  let file;
  try {
    file = parseScenarioFile(text, values.scenarios);
  } catch (error) {
    process.stderr.write(`serve-scripted: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`serve-scripted: --port must be 0..65535, got ${values.port}\n`);
    process.exit(2);
  }
  const server = new ScriptedOpenAiServer(scenarioScript(file), {
    host: values.host,
    port,
    models: file.models,
    ...(file.pages ? { pages: file.pages } : {}),
    apiKey: values['api-key'],
  });
  const url = await server.start();
  process.stdout.write(`SCRIPTED_OPENAI_URL=${url}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (values['exit-on-stdin-close']) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
}

void main();
