/**
 * An MCP server that changes its tools mid-run (notifications/tools/list_changed): the mcp
 * agent's next request declares the new set, its prompt lists it, and the new tool can
 * be called; a removed tool is gone from the next request (issue 16 item 4). Through the
 * runtime, the project's test MCP server over stdio and the scripted model server.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { OpenAiLlm } from '../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../llm/testing/profiles';
import {
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServerReply,
} from '../llm/testing/scripted-openai-server';
import { createRuntime, type Runtime } from '../runtime';
import { stdioServerSettings } from '../tools/mcp/testing/test-mcp-process';

const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

const toolNames = (r: RecordedRequest) =>
  ((r.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const call = (name: string): ScriptedServerReply => ({ toolCalls: [{ name, arguments: {} }] });

describe('MCP tools/list_changed', () => {
  it('is followed between steps: a tool added mid-run is declared and callable, a removed one is gone', async () => {
    // grow, call the grown tool, shrink, then terminate
    const plan = ['mcp_t_grow', 'mcp_t_grown', 'mcp_t_shrink', 'terminate'];
    const { server, baseUrl } = await startScriptedServer((request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const name = plan[Math.min(turn, plan.length - 1)]!;
      return name === 'terminate'
        ? { toolCalls: [{ name, arguments: { status: 'success' } }] }
        : call(name);
    });
    const home = mkdtempSync(join(tmpdir(), 'wb-mcp-changed-'));
    const mcp = stdioServerSettings();
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\napi_key = "sk-test-changed"\n[sandbox]\nuse_sandbox = false\n` +
        `[mcp.servers.t]\ntype = "stdio"\ncommand = ${JSON.stringify(mcp.command)}\nargs = ${JSON.stringify(mcp.args)}\n`,
    );
    const runtime = createRuntime({
      home,
      createLlm: () => new OpenAiLlm(testProfile(baseUrl), { retry: FAST_RETRY }),
    });
    runtimes.push(runtime);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    try {
      const result = await runtime.runs.start({ task: 'grow and use it', agent: 'mcp' }).done;
      expect(result.outcome, result.error).toBe('finished');
      const [first, second, third, fourth] = server.requests;
      expect(toolNames(first!)).not.toContain('mcp_t_grown');
      expect(toolNames(second!)).toContain('mcp_t_grown');
      expect(toolNames(third!)).toContain('mcp_t_grown');
      expect(toolNames(fourth!)).not.toContain('mcp_t_grown');
      // the prompt lists the tools the request declares
      const system = (r: RecordedRequest) => String(r.messages[0]!.content);
      expect(system(second!)).toContain('- mcp_t_grown');
      expect(system(fourth!)).not.toContain('- mcp_t_grown');
      const grown = events.find((e) => e.type === 'tool.finished' && e.name === 'mcp_t_grown');
      // before: "Unknown tool 'mcp_t_grown'"
      expect(grown).toMatchObject({ ok: true, output: 'grown ok' });
    } finally {
      await server.close();
    }
  });
});
