/**
 * Live export from the built CLI (issue 30; docs/telemetry.md): `workbench run` with
 * `[telemetry] otlp_endpoint` starts the export thread from the build output
 * (out/main/otlp-export-worker.js, found next to the bundle), the run's spans reach the
 * receiver before the command exits (shutdown flushes), and a receiver that is down
 * costs the run nothing but the failure the export thread reports back, printed on stderr.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { reply } from '../runtime/llm/testing/scripted-replies';
import {
  decodeWithOtelDefinitions,
  startTestReceiver,
  type TestReceiver,
} from '../runtime/telemetry/testing/otlp-receiver';
import { runWorkbench } from './testing/workbench-child';

let server: ScriptedOpenAiServer;
let baseUrl: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer((_request, i) =>
    i % 3 < 2 ? reply.tool('create_chat_completion', { response: `r${i}` }) : reply.terminate(),
  );
  baseUrl = await server.start();
});
afterAll(() => server.close());

function homeWith(endpoint: string): string {
  const home = mkdtempSync(join(tmpdir(), 'wb-otlp-cli-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "gpt-cli"\nbase_url = "${baseUrl}"\napi_key = "sk-cli-test-0000"\n` +
      `[sandbox]\nuse_sandbox = false\n[telemetry]\notlp_endpoint = "${endpoint}"\n`,
    { mode: 0o600 },
  );
  return home;
}

const spanNames = (r: TestReceiver) =>
  r.requests.flatMap((req) =>
    decodeWithOtelDefinitions(req.body).resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name)),
    ),
  );

describe('workbench run with live export (the built export thread)', () => {
  it("sends the run's spans before the command exits", async () => {
    const r = await startTestReceiver();
    try {
      const ran = await runWorkbench(homeWith(r.url), [
        'run',
        '--agent',
        'toolcall',
        '--jsonl',
        'hi',
      ]);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).not.toMatch(/telemetry|export thread|export's thread/);
      const names = spanNames(r);
      expect(names).toContain('invoke_agent toolcall');
      expect(names.filter((n) => n.startsWith('step ')).length).toBe(
        ran.events.filter((e) => e.type === 'step.started').length,
      );
    } finally {
      await r.close();
    }
  });

  it('a receiver that is down: the run finishes, the failure is printed', async () => {
    const down = await startTestReceiver();
    const url = down.url;
    await down.close();
    const ran = await runWorkbench(homeWith(url), ['run', '--agent', 'toolcall', '--jsonl', 'hi']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    expect(ran.stderr).toMatch(
      /\[workbench\] telemetry: export to http:\/\/127\.0\.0\.1:\d+ failed \(1 so far\): fetch failed \(ECONNREFUSED\)/,
    );
  });
});
