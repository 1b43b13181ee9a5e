/**
 * What `workbench run` loads before its first event (issue 16 item 7): the built CLI's
 * static import graph, from out/main/cli.js through the `run` command, must not reach
 * the packages a run only needs later, or never: the model SDK (first model call),
 * playwright-core (first browser action), the MCP SDK (a configured server), dockerode
 * and tar-stream (the sandbox), js-tiktoken (a request near max_input_tokens). Each used
 * to be imported at start and together they cost seconds and over 200 MiB.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { reply } from '../runtime/llm/testing/scripted-replies';
import { runWorkbench } from './testing/workbench-child';

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

/**
 * Packages bundled into a built chunk (electron.vite.config.ts BUNDLED_DEPS): rolldown
 * heads each module it inlines with a `// path/to/node_modules/PKG/file.js` comment.
 */
function bundledPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\/\/ \S*node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm)].map(
    (m) => m[1]!,
  );
}

/**
 * Every package reached by static imports from `entry`, following our own chunks: those
 * imported from node_modules and those bundled into a chunk that is reached.
 */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const name of bundledPackages(file)) packages.add(name);
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

  it('finds a package bundled into a chunk (the SDK is, issue 27), so the check above sees it', () => {
    const chunks = readdirSync(join(out, 'chunks')).map((f) => join(out, 'chunks', f));
    expect(chunks.flatMap(bundledPackages)).toContain('openai');
    // ...in a chunk that is imported only dynamically
    const sdk = chunks.filter((f) => bundledPackages(f).includes('openai'));
    const reached = packagesReached(join(out, 'cli.js'));
    expect(sdk.length).toBeGreaterThan(0);
    expect(reached.has('openai')).toBe(false);
  });
});

/**
 * Issue 27 (start-up): what a run has really loaded when it sends its first model
 * request, the manus agent included (its pre-flight asks Docker, and the orphan sweep
 * lists containers, right at the start). Docker's client (dockerode, docker-modem), ssh2,
 * protobufjs and gRPC used to be loaded by then: the pre-flight and the sweep now ask the
 * engine's socket directly (sandbox/socket-probe.ts), and they load with the first
 * container. A preload notes the CommonJS packages in memory at the first HTTP request
 * that is not to the Docker socket.
 */
const NOT_BEFORE_FIRST_REQUEST = [
  'dockerode',
  'docker-modem',
  'ssh2',
  'protobufjs',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'tar-fs',
];

const PRELOAD = `
import { createRequire } from 'node:module';
import dc from 'node:diagnostics_channel';
let said = false;
const note = () => {
  if (said) return;
  said = true;
  const files = Object.keys(createRequire(import.meta.url).cache);
  const packages = new Set(
    files
      .filter((f) => f.includes('node_modules/'))
      .map((f) => {
        const rest = f.split('node_modules/').pop();
        return rest.split('/').slice(0, rest.startsWith('@') ? 2 : 1).join('/');
      }),
  );
  process.stderr.write('LOADED_AT_FIRST_REQUEST=' + JSON.stringify([...packages]) + '\\n');
};
// node:http (the model client's fetch, issue 27) or undici (Node's fetch, before)
dc.subscribe('http.client.request.start', ({ request }) => request.socketPath || note());
dc.subscribe('undici:request:create', note);
`;

describe('what a run has loaded at its first model request (issue 27)', () => {
  let server: ScriptedOpenAiServer;
  let home: string;
  let preload: string;

  beforeAll(async () => {
    server = new ScriptedOpenAiServer(() => reply.terminate());
    const baseUrl = await server.start();
    home = mkdtempSync(join(tmpdir(), 'wb-startup-loaded-'));
    preload = join(home, 'loaded-at-first-request.mjs');
    writeFileSync(preload, PRELOAD);
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "gpt-cli"\nbase_url = "${baseUrl}"\napi_key = "sk-cli-test-0000"\n`,
      { mode: 0o600 },
    );
  });
  afterAll(() => server.close());

  for (const agent of ['toolcall', 'manus']) {
    it(`${agent}: nothing of Docker, ssh2, protobufjs or gRPC`, async () => {
      const ran = await runWorkbench(home, ['run', '--agent', agent, '--jsonl', 'say hello'], {
        env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
      });
      expect(ran.code, ran.stderr).toBe(0);
      const line = /LOADED_AT_FIRST_REQUEST=(.*)/.exec(ran.stderr);
      expect(line, ran.stderr).not.toBeNull();
      const loaded = JSON.parse(line![1]!) as string[];
      expect(loaded.filter((p) => NOT_BEFORE_FIRST_REQUEST.includes(p))).toEqual([]);
    });
  }
});
