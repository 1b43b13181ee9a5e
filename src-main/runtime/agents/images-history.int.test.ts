/**
 * Images in the history, end to end (issue 17 item 3): a run of the `mcp` agent against
 * a real MCP server (the SDK test server over stdio, whose `snapshot` tool returns a PNG)
 * and the project's scripted OpenAI-compatible server. The history then holds the image
 * file beside the log and `memory.appended` names it; a fork from the step after it
 * sends the model the same image again (its memory is rebuilt with the bytes) and keeps
 * its own copy, which stays readable when the original run is deleted.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventMessage, RunEvent } from '@shared/events';
import { ScriptedOpenAiServer } from '../llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../llm/testing/scripted-types';
import { createRuntime, type Runtime } from '../runtime';
import { TEST_PNG_BASE64 } from '../tools/mcp/testing/test-mcp-server';
import { stdioServerSettings } from '../tools/mcp/testing/test-mcp-process';

const FORK_MESSAGE = 'Describe the picture again.';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** the data: URLs of the images a request carried */
function imagesSent(request: RecordedRequest): string[] {
  return request.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as { type: string; image_url?: { url: string } }[]).flatMap((part) =>
          part.type === 'image_url' && part.image_url ? [part.image_url.url] : [],
        )
      : [],
  );
}

describe('images kept in the history (mcp agent, scripted server)', () => {
  it('stores the tool image beside the log, names it in the event, and a fork sends it again', async () => {
    const server = new ScriptedOpenAiServer((request) => {
      const texts = request.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
      const tools = request.messages.filter((m) => m.role === 'tool').length;
      if (texts.includes(FORK_MESSAGE) || tools >= 1) {
        return { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
      }
      return {
        content: 'Taking a picture',
        toolCalls: [{ name: 'mcp_pics_snapshot', arguments: {} }],
      };
    });
    const baseUrl = await server.start();
    cleanups.push(() => server.close());
    const home = mkdtempSync(join(tmpdir(), 'wb-images-'));
    const configFile = join(home, 'config.toml');
    writeFileSync(
      configFile,
      stringify({
        llm: { model: 'gpt-4o', base_url: baseUrl, api_key: 'sk-test-images' },
        mcp: { servers: { pics: stdioServerSettings() } },
      }),
      { mode: 0o600 },
    );
    const runtime: Runtime = createRuntime({ home, configFile, env: {} });
    cleanups.push(() => runtime.dispose());
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));

    const original = runtime.runs.start({ agent: 'mcp', task: 'Take a picture of the page.' });
    expect(await original.done).toMatchObject({ outcome: 'finished' });
    const appended = (runId: string): EventMessage[] =>
      events.flatMap((e) => (e.runId === runId && e.type === 'memory.appended' ? [e.message] : []));
    const withImage = appended(original.runId).filter((m) => m.imageMimeType);
    expect(withImage).toHaveLength(1);
    const png = Buffer.from(TEST_PNG_BASE64, 'base64');
    const ref = `${createHash('sha256').update(png).digest('hex')}.png`;
    expect(withImage[0]).toMatchObject({
      role: 'user',
      imageMimeType: 'image/png',
      image: { mimeType: 'image/png', bytes: png.length, width: 2, height: 2, ref },
    });
    const runsDir = join(home, 'runs');
    const imagesDir = join(runsDir, `${original.runId}.images`);
    expect(readdirSync(imagesDir)).toEqual([ref]);
    expect(readFileSync(join(imagesDir, ref))).toEqual(png);
    // the log on disk names it too (what a reopened history reads)
    const log = readFileSync(join(runsDir, `${original.runId}.jsonl`), 'utf8');
    expect(log).toContain(`"ref":"${ref}"`);
    expect(log).not.toContain(TEST_PNG_BASE64);
    // the model saw it
    expect(imagesSent(server.requests.at(-1)!)).toEqual([
      `data:image/png;base64,${TEST_PNG_BASE64}`,
    ]);

    const stepAfterImage = events.find(
      (e) => e.runId === original.runId && e.type === 'step.finished',
    ) as Extract<RunEvent, { type: 'step.finished' }>;
    const before = server.requests.length;
    const fork = await runtime.runs.startFrom({
      kind: 'fork',
      runId: original.runId,
      step: stepAfterImage.step,
      message: FORK_MESSAGE,
    });
    expect(await fork.done).toMatchObject({ outcome: 'finished' });
    const forkFirst = server.requests[before]!;
    expect(imagesSent(forkFirst)).toEqual([`data:image/png;base64,${TEST_PNG_BASE64}`]);
    expect(appended(fork.runId).find((m) => m.imageMimeType)?.image?.ref).toBe(ref);
    expect(readdirSync(join(runsDir, `${fork.runId}.images`))).toEqual([ref]);

    expect(runtime.runs.history.remove(original.runId)).toBe(true);
    expect(existsSync(imagesDir)).toBe(false);
    expect(runtime.runs.history.readImage?.(fork.runId, ref)?.bytes).toEqual(png);
  });
});
