/**
 * A long `workbench run` as a user starts it: 14 steps of real sandbox commands, with a
 * scripted model. Issue 12 item 10: every run of 11+ steps printed
 * MaxListenersExceededWarning (one abort listener per sandbox call stayed on the run).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';

const root = fileURLToPath(new URL('../..', import.meta.url));
const engine = await probeDocker();

describe.skipIf(!engine.available)('a 14-step workbench run with sandbox commands', () => {
  it('finishes its steps without a listener leak warning', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-long-run-'));
    writeFileSync(
      join(home, 'loop.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 'loop',
            turns: [
              {
                content: 'step {{turn}}',
                toolCalls: [{ name: 'bash', arguments: { command: 'echo step {{turn}}' } }],
              },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        'api_type = "scripted"',
        'scenario = "loop.json"',
        '[agent.swe]',
        'max_steps = 14',
        'duplicate_threshold = 100',
        '[sandbox]',
        `image = "${LOCAL_SANDBOX_IMAGE}"`,
      ].join('\n'),
      { mode: 0o600 },
    );
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(root, 'bin/workbench.js'), 'run', '--agent', 'swe', 'loop'],
        { env: { ...process.env, WORKBENCH_HOME: home } },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).toContain('✓ bash (exit 0): step 14');
    expect(result.code).toBe(3); // max steps reached, as asked
    expect(result.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  }, 120_000);
});
