/**
 * A binary resource from an MCP server is saved into the agent's workspace, and only
 * there: the agent can plant a link at `mcp-resources`, at the server's folder or at the
 * file's name, pointing at a host folder or file (~/.ssh/authorized_keys); the blob is
 * then not saved, the model is told why, and the host is unchanged.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceBlobSink } from './mcp-blobs';

function hostFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'wb-host-ssh-'));
  writeFileSync(join(dir, 'authorized_keys'), 'the user key\n');
  return dir;
}

const BYTES = Buffer.from('ssh-ed25519 AAAA attacker\n');
const URI = 'demo://files/authorized_keys';

describe('workspaceBlobSink', () => {
  it('saves into the workspace folder for the server', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'wb-blob-ws-'));
    const said = workspaceBlobSink(workspace, '/workspace', 'srv').save(URI, 'x/y', BYTES);
    expect(said).toMatch(/^saved in the workspace as mcp-resources\/srv\/authorized_keys/);
    expect(readFileSync(join(workspace, 'mcp-resources', 'srv', 'authorized_keys'))).toEqual(BYTES);
    // a second save replaces the file
    workspaceBlobSink(workspace, '/workspace', 'srv').save(URI, 'x/y', Buffer.from('2'));
    expect(readFileSync(join(workspace, 'mcp-resources', 'srv', 'authorized_keys'), 'utf8')).toBe(
      '2',
    );
  });

  it.each([
    ['mcp-resources', 'mcp-resources'],
    ['the server folder', 'mcp-resources/srv'],
    ['the file name', 'mcp-resources/srv/authorized_keys'],
  ])('never writes through a link planted at %s', (_what, planted) => {
    const host = hostFolder();
    const workspace = mkdtempSync(join(tmpdir(), 'wb-blob-ws-'));
    const parts = planted.split('/');
    mkdirSync(join(workspace, ...parts.slice(0, -1)), { recursive: true });
    const target = parts.length === 3 ? join(host, 'authorized_keys') : host;
    symlinkSync(target, join(workspace, ...parts));
    // for the folder cases, the host folder gets what the server's folder would hold
    if (parts.length === 1) mkdirSync(join(host, 'srv'));
    const said = workspaceBlobSink(workspace, '/workspace', 'srv').save(URI, 'x/y', BYTES);
    expect(said).toMatch(/^not saved: .* in the workspace is not a plain (folder|file)/);
    expect(readFileSync(join(host, 'authorized_keys'), 'utf8')).toBe('the user key\n');
    expect(readdirSync(host).sort()).toEqual(
      parts.length === 1 ? ['authorized_keys', 'srv'] : ['authorized_keys'],
    );
    if (parts.length === 1) expect(readdirSync(join(host, 'srv'))).toEqual([]);
  });
});
