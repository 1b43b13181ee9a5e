/**
 * What `workbench run` loads before its first event (issue 16 item 7): the built CLI's
 * static import graph, from out/main/cli.js through the `run` command, must not reach
 * the packages a run only needs later, or never: the model SDK (first model call),
 * playwright-core (first browser action), the MCP SDK (a configured server), dockerode
 * and tar-stream (the sandbox), js-tiktoken (a request near max_input_tokens). Each used
 * to be imported at start and together they cost seconds and over 200 MiB.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const out = fileURLToPath(new URL('../../out/main/', import.meta.url));
const LATE = [
  'openai',
  'playwright-core',
  '@modelcontextprotocol/sdk',
  'dockerode',
  'tar-stream',
  'js-tiktoken',
];

/** Static `import ... from "x"` specifiers of a built module (dynamic import() excluded). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gm),
  ].map((m) => (m[1] ?? m[2])!);
}

/** Every package reached by static imports from `entry`, following our own chunks. */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(join(file, '..', spec));
      else if (!spec.startsWith('node:')) {
        packages.add(
          spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!,
        );
      }
    }
  };
  visit(entry);
  return packages;
}

describe('what workbench run loads at start', () => {
  it('reaches none of the packages a run needs only later', () => {
    // `run-HASH.js` (an 8-character hash); other modules named run-* get chunks of their
    // own too (run-compare-HASH.js, run-printer-HASH.js, run-store-HASH.js)
    const runChunks = readdirSync(join(out, 'chunks')).filter((f) => /^run-[\w-]{8}\.js$/.test(f));
    expect(runChunks, 'the run command chunk (npm run build)').toHaveLength(1);
    const runChunk = runChunks[0];
    const reached = packagesReached(join(out, 'chunks', runChunk!));
    expect(reached).toContain('zod'); // the graph is really followed
    expect([...reached].filter((p) => LATE.includes(p))).toEqual([]);
  });
});
