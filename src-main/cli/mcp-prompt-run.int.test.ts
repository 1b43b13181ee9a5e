/**
 * `workbench run --agent mcp --mcp-prompt SERVER/NAME --arg NAME=VALUE` against the
 * reference server-everything over stdio: the prompt's message is the task, the run
 * records where it came from (`run.started.prompt`), and the server's log messages are
 * printed compactly on stderr (issue 26 items 1 and 3).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { EVERYTHING } from '../runtime/tools/mcp/testing/reference-servers';

const root = fileURLToPath(new URL('../..', import.meta.url));

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-prompt-'));
  writeFileSync(
    join(dir, 'scenario.json'),
    JSON.stringify({
      scenarios: [
        {
          name: 'roots',
          turns: [
            { toolCalls: [{ name: 'mcp_cli_get-roots-list', arguments: {} }] },
            { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
          ],
        },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'config.toml'),
    '[llm]\napi_type = "scripted"\nscenario = "scenario.json"\n',
  );
  return dir;
}

function run(dir: string, extra: string[]) {
  return spawnSync(
    process.execPath,
    [
      join(root, 'bin/workbench.js'),
      'run',
      '--agent',
      'mcp',
      '--server-command',
      `${process.execPath} ${EVERYTHING} stdio`,
      '--mcp-prompt',
      'cli/args-prompt',
      ...extra,
    ],
    { cwd: dir, env: { ...process.env, WORKBENCH_HOME: dir }, encoding: 'utf8', timeout: 50_000 },
  );
}

describe('workbench run --mcp-prompt', () => {
  it("makes the prompt's messages the task and records the prompt", () => {
    const result = run(home(), ['--arg', 'city=Paris', '--arg', 'state=TX', '--jsonl']);
    expect(result.status, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events[0]).toMatchObject({
      type: 'run.started',
      task: "What's weather in Paris, TX?",
      prompt: { server: 'cli', name: 'args-prompt', arguments: { city: 'Paris', state: 'TX' } },
    });
  });

  it("prints the server's log messages on stderr", () => {
    const result = run(home(), ['--arg', 'city=Oslo']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('from MCP prompt cli/args-prompt');
    expect(result.stderr).toContain("task: What's weather in Oslo?");
    expect(result.stderr).toMatch(
      /\[mcp cli\] info everything-server: Roots updated: 1 root\(s\) received from client/,
    );
  });

  it('says which arguments the prompt needs', () => {
    const result = run(home(), ['--arg', 'town=Oslo']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Prompt cli\/args-prompt: it requires city; it takes no town/);
  });
});
