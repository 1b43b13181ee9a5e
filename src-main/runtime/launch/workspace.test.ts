import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxSchema } from '../config/schema';
import { checkWorkspace } from './workspace';

const settings = sandboxSchema.parse({});

function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'wb-ws-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, 'workspaces'), { recursive: true });
  mkdirSync(project);
  writeFileSync(join(home, 'secrets.json'), '{}');
  return { root, home, project };
}

describe('checkWorkspace', () => {
  it('accepts a project folder, mounted or copied', async () => {
    const { home, project } = fixture();
    for (const mode of ['mount', 'copy'] as const) {
      const check = await checkWorkspace({ path: project, mode }, { home, settings });
      expect(check.status === 'error').toBe(false);
    }
  });

  it('refuses relative paths, missing folders, files, and the app folder or its parents', async () => {
    const { root, home, project } = fixture();
    writeFileSync(join(project, 'file.txt'), 'x');
    const cases = [
      ['project', /not an absolute path/],
      [join(root, 'missing'), /does not exist/],
      [join(project, 'file.txt'), /a file, not a folder/],
      [root, /too wide.*API keys/],
      [join(home, 'workspaces'), /inside the app's own folder/],
    ] as const;
    for (const [path, message] of cases) {
      const check = await checkWorkspace({ path, mode: 'mount' }, { home, settings });
      expect(check.status, path).toBe('error');
      expect(check.message).toMatch(message);
    }
  });

  it('judges a link by where it points: a link to the app folder is refused', async () => {
    const { root, home } = fixture();
    const toHome = join(root, 'innocent');
    symlinkSync(home, toHome);
    const toParent = join(root, 'wide');
    symlinkSync(root, toParent);
    for (const path of [toHome, toParent]) {
      const check = await checkWorkspace({ path, mode: 'mount' }, { home, settings });
      expect(check.status, path).toBe('error');
    }
  });
});
