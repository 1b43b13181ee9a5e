/**
 * `workbench serve`'s image route (issue 17): a run's stored image with its own type and
 * `nosniff`, only with the token, and only for a run id and ref of their exact patterns:
 * traversal, absolute paths and SVG are refused before any path is built.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImagePath } from '@shared/ws-protocol';
import { collect, finishedOf, serve, until } from '../testing/ws-contract-fixture';
import { TEST_RUN_PNG_BASE64 } from '../testing/test-runs';

async function runWithImage() {
  const served = await serve();
  const events = collect(served.api);
  const { runId } = await served.api.startRun({ task: 'picture steps: 2', agent: 'toolcall' });
  await until(() => finishedOf(events, runId));
  const ref = events.flatMap((e) =>
    e.type === 'memory.appended' && e.message.image?.ref ? [e.message.image.ref] : [],
  )[0]!;
  const base = `http://127.0.0.1:${served.host.port}`;
  return { ...served, runId, ref, base };
}

describe('GET /run-images/RUN/REF (workbench serve)', () => {
  it('serves the image with its type, nosniff and a locked-down CSP', async () => {
    const { runId, ref, base, host } = await runWithImage();
    const res = await fetch(base + runImagePath(runId, ref, host.token));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(
      Buffer.from(TEST_RUN_PNG_BASE64, 'base64'),
    );
    const head = await fetch(base + runImagePath(runId, ref, host.token), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(
      Buffer.from(TEST_RUN_PNG_BASE64, 'base64').length,
    );
    expect(
      (await fetch(base + runImagePath(runId, ref, host.token), { method: 'POST' })).status,
    ).toBe(405);
  });

  it('refuses requests without the token', async () => {
    const { runId, ref, base } = await runWithImage();
    expect((await fetch(`${base}/run-images/${runId}/${ref}`)).status).toBe(401);
    expect((await fetch(base + runImagePath(runId, ref, 'wrong-token'))).status).toBe(401);
  });

  it('refuses traversal, absolute refs, bad run ids and SVG, and answers 404 for a missing image', async () => {
    const { runId, ref, base, host, home } = await runWithImage();
    // an SVG planted under a ref-like name beside the real image is never served
    const svgRef = `${'b'.repeat(64)}.svg`;
    mkdirSync(join(home, 'runs', `${runId}.images`), { recursive: true });
    writeFileSync(join(home, 'runs', `${runId}.images`, svgRef), '<svg><script>1</script></svg>');
    const token = `?token=${host.token}`;
    const cases: [string, number][] = [
      [`/run-images/${runId}/..%2F..%2Fconfig.toml${token}`, 400],
      [`/run-images/${runId}/..%2Findex.json${token}`, 400],
      [`/run-images/${runId}/%2Fetc%2Fpasswd${token}`, 400],
      [`/run-images/${runId}/${encodeURIComponent(`/${ref}`)}${token}`, 400],
      [`/run-images/..%2F${runId}/${ref}${token}`, 400],
      [`/run-images/..%2F..%2Fetc/${ref}${token}`, 400],
      [`/run-images/${runId}/${ref}/extra${token}`, 400],
      [`/run-images/${runId}/${svgRef}${token}`, 400],
      [`/run-images/${runId}${token}`, 400],
      [`/run-images/${runId}/${'0'.repeat(64)}.png${token}`, 404],
      [`/run-images/no-such-run/${ref}${token}`, 404],
    ];
    for (const [path, status] of cases) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toBe('text/plain');
    }
  });
});
