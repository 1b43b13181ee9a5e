import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxSchema } from '../config/schema';
import { SessionRegistry } from '../session/session';
import { checkWorkspace, mountSessionId, openWorkspace, WorkspaceRefusedError } from './workspace';

const settings = sandboxSchema.parse({});

function fixture() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wb-ws-')));
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

describe('the workspace gate: system folders and the user home', () => {
  it('refuses system folders and what is inside them, and any folder holding the user home', async () => {
    const { root, home } = fixture();
    const userHome = join(root, 'users', 'me');
    mkdirSync(userHome, { recursive: true });
    const cases = [
      ['/etc', /system folder \(\/etc\)/],
      ['/usr/share', /system folder \(\/usr\)/],
      ['/proc/1', /system folder \(\/proc\)/],
      ['/sys', /system folder \(\/sys\)/],
      ['/dev', /system folder \(\/dev\)/],
      [userHome, /too wide: the agent would see your whole home folder/],
      [join(root, 'users'), /too wide: the agent would see every file of every user folder/],
    ] as const;
    for (const [path, message] of cases) {
      for (const mode of ['mount', 'copy'] as const) {
        const check = await checkWorkspace({ path, mode }, { home, settings, userHome });
        expect(check.status, path).toBe('error');
        expect(check.message, path).toMatch(message);
      }
    }
  });

  it('a folder under the user home is fine, also when that home is /root', async () => {
    const { root, home, project } = fixture();
    const check = await checkWorkspace(
      { path: project, mode: 'mount' },
      { home, settings, userHome: join(root, 'elsewhere') },
    );
    expect(check.status).not.toBe('error');
    // root's projects live in /root: it is a system folder only for other users
    const asRoot = await checkWorkspace(
      { path: '/root', mode: 'copy' },
      { home, settings, userHome: '/root' },
    );
    expect(asRoot.message).toMatch(/too wide: the agent would see your whole home folder/);
  });

  it('openWorkspace admits before it mounts or copies: a refused folder opens no session', async () => {
    const { root, home } = fixture();
    const sessions = new SessionRegistry(join(home, 'workspaces'));
    for (const mode of ['mount', 'copy'] as const) {
      await expect(
        openWorkspace(
          { path: '/etc', mode },
          {
            runId: '20260101T000000-abababab',
            home,
            settings,
            workspacesDir: join(home, 'workspaces'),
            sessions,
          },
        ),
      ).rejects.toBeInstanceOf(WorkspaceRefusedError);
    }
    expect(readdirSync(join(home, 'workspaces'))).toEqual([]);
    expect(sessions.get(mountSessionId('/etc'))).toBeUndefined();
    // an admitted link is mounted at its real path: what was checked is what is mounted
    const project = join(root, 'project');
    symlinkSync(project, join(root, 'via-link'));
    const opened = await openWorkspace(
      { path: join(root, 'via-link'), mode: 'mount' },
      {
        runId: '20260101T000000-abababab',
        home,
        settings,
        workspacesDir: join(home, 'workspaces'),
        sessions,
      },
    );
    expect(opened.session.workspaceDir).toBe(realpathSync(project));
  });
});
