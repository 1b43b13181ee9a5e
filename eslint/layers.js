// The layer map of docs/architecture.md, enforced. Every source file belongs to the
// deepest folder listed below that contains it; it may import files of its own folder
// and of the folders its entry names, nothing else of ours. Imports point down: a folder
// never names one listed above it. Packages (`node:*`, npm) are checked by the other
// rules in eslint.config.js.
import { dirname, relative, resolve } from 'node:path';

const RUNTIME_BASE = ['src-shared'];
const rt = (name) => `src-main/runtime/${name}`;

/** folder -> folders it may import (besides itself). Order: top to bottom. */
export const LAYERS = {
  // ---- the runtime (plain Node), top to bottom
  'src-main/runtime':
    'experiments telemetry sandbox-mcp batch terminal launch timetravel flow agents loop tools runs debug demo sandbox llm session config util',
  // experiments: datasets, experiment files and reports, run by the batch engine
  [rt('experiments')]: 'batch launch agents runs config util',
  // the sandbox as an MCP server: outside clients' tool calls as runs of their own
  [rt('sandbox-mcp')]:
    'launch timetravel agents loop tools tools/sandbox runs sandbox session config util',
  // the run's terminal: typed commands in a session's sandbox, under an agent call's limits
  [rt('terminal')]: 'agents tools/sandbox runs sandbox session config util',
  // batch runs: plans, schedules and resumes runs through the run manager
  [rt('batch')]: 'runs config util',
  [rt('launch')]:
    'timetravel flow agents loop tools tools/browser tools/sandbox runs debug demo sandbox llm session config util',
  // checkpoints, forks and resumes: agent state from histories, sandbox snapshots
  [rt('timetravel')]: 'flow loop tools/planning runs sandbox session config util',
  [rt('flow')]: 'loop tools tools/planning debug llm config util',
  [rt('agents')]:
    'loop tools tools/browser tools/mcp tools/sandbox tools/planning demo sandbox llm session config util',
  [rt('loop')]: 'tools tools/browser debug llm config util',
  [rt('tools/browser')]: 'tools llm session config util',
  [rt('tools/mcp')]: 'tools llm session config util',
  [rt('tools/sandbox')]: 'tools sandbox session config util',
  [rt('tools/planning')]: 'tools util',
  [rt('tools')]: 'llm config util',
  // OpenTelemetry: runs as OTLP spans out, GenAI spans in as runs (docs/telemetry.md)
  [rt('telemetry')]: 'loop runs config util',
  [rt('runs')]: 'debug config util',
  [rt('debug')]: 'util',
  [rt('demo')]: 'llm config util',
  [rt('sandbox')]: 'session config util',
  [rt('llm')]: 'config util',
  [rt('session')]: 'util',
  [rt('config')]: 'util',
  [rt('util')]: '',
  // ---- the hosts of the runtime
  'src-main/cli': 'src-main/host src-main/runtime/*',
  'src-main/electron': 'src-main/host src-main/runtime/*',
  'src-main/host': 'src-main/runtime/*',
  'src-main/preload': '',
  // ---- the renderer, top to bottom
  'src-renderer': 'src-renderer/*',
  'src-renderer/app':
    'src-renderer/features/* src-renderer/components src-renderer/store src-renderer/api src-renderer/lib src-renderer/test-ids.ts',
  'src-renderer/features/run-view':
    'src-renderer/features/* src-renderer/components src-renderer/store src-renderer/lib src-renderer/test-ids.ts',
  'src-renderer/features':
    'src-renderer/components src-renderer/store src-renderer/lib src-renderer/test-ids.ts',
  // small presentational pieces several features show the same way (the run's badge)
  'src-renderer/components': 'src-renderer/lib src-renderer/test-ids.ts',
  'src-renderer/store': 'src-renderer/api src-renderer/lib',
  'src-renderer/api': '',
  'src-renderer/lib': '',
  // ---- shared by every target
  'src-shared': '',
};

/**
 * Tests exercise their folder together with whatever a realistic setup needs (an agent
 * test starts a runtime, a host test drives the renderer's WebSocket client), so tests
 * and the test helpers under `testing/` folders are not held to the map.
 */
const TEST_FILE = /\.test\.tsx?$|\/testing\//;

const runtimeShort = new Set(
  Object.keys(LAYERS)
    .filter((k) => k.startsWith('src-main/runtime/'))
    .map((k) => k.slice('src-main/runtime/'.length)),
);

function expand(owner, list) {
  const names = list.split(/\s+/).filter(Boolean);
  return names.map((name) => {
    // Inside the runtime, short names are runtime folders.
    if (owner.startsWith('src-main/runtime') && runtimeShort.has(name)) return rt(name);
    return name;
  });
}

const ALLOWED = Object.fromEntries(
  Object.entries(LAYERS).map(([k, v]) => [k, [...expand(k, v), ...RUNTIME_BASE]]),
);
const FOLDERS = Object.keys(LAYERS).sort((a, b) => b.length - a.length);

/** The layer folder a repo-relative path belongs to (a feature folder counts as `features`). */
export function layerOf(path) {
  const match = FOLDERS.find((f) => path === f || path.startsWith(`${f}/`));
  if (!match) return undefined;
  // Each feature is its own unit: features may not import one another (run-view composes).
  if (match === 'src-renderer/features') {
    const feature = path.split('/')[2];
    return { layer: match, unit: `src-renderer/features/${feature}` };
  }
  return { layer: match, unit: match };
}

function allows(from, target) {
  return (ALLOWED[from.layer] ?? []).some((a) => {
    if (a.endsWith('/*')) return target === a.slice(0, -2) || target.startsWith(a.slice(0, -1));
    if (a.endsWith('.ts')) return target === a.slice(0, -3) || target === a;
    return layerOf(target)?.layer === a;
  });
}

function targetPath(root, file, spec) {
  if (spec.startsWith('@shared/') || spec === '@shared') return `src-shared${spec.slice(7)}`;
  if (!spec.startsWith('.')) return undefined;
  return relative(root, resolve(dirname(file), spec))
    .split('\\')
    .join('/');
}

export const layersPlugin = {
  rules: {
    layers: {
      meta: {
        type: 'problem',
        docs: { description: 'Imports point down the layer map of docs/architecture.md.' },
        schema: [],
        messages: {
          upward:
            '{{from}} may not import {{to}}: imports point down the layer map (docs/architecture.md, eslint/layers.js).',
        },
      },
      create(context) {
        const root = context.cwd;
        const file = relative(root, context.filename).split('\\').join('/');
        if (TEST_FILE.test(file)) return {};
        const from = layerOf(file);
        if (!from) return {};
        function check(node, source) {
          if (!source || typeof source.value !== 'string') return;
          const target = targetPath(root, context.filename, source.value);
          if (!target) return;
          const to = layerOf(target);
          if (!to || to.unit === from.unit) return;
          if (!allows(from, target)) {
            context.report({ node, messageId: 'upward', data: { from: from.unit, to: to.unit } });
          }
        }
        return {
          ImportDeclaration: (node) => check(node, node.source),
          ExportNamedDeclaration: (node) => check(node, node.source),
          ExportAllDeclaration: (node) => check(node, node.source),
          ImportExpression: (node) => check(node, node.source),
        };
      },
    },
  },
};
