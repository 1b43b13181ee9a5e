import { describe, expect, it } from 'vitest';
import { sessionFolder } from './session-folder';

describe('sessionFolder', () => {
  it("joins with the host path's own separator", () => {
    expect(sessionFolder('/home/u/.agent-workbench/workspaces', 's-1')).toBe(
      '/home/u/.agent-workbench/workspaces/s-1',
    );
    expect(sessionFolder('/srv/workspaces/', 's-1')).toBe('/srv/workspaces/s-1');
    expect(sessionFolder('C:\\Users\\u\\.agent-workbench\\workspaces', 'fork-r1')).toBe(
      'C:\\Users\\u\\.agent-workbench\\workspaces\\fork-r1',
    );
  });
});
