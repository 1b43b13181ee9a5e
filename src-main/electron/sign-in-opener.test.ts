import { describe, expect, it, vi } from 'vitest';
import { desktopSignInOpener } from './sign-in-opener';

describe('desktopSignInOpener', () => {
  it('opens the consent page with the injected shell.openExternal, and only web pages', async () => {
    const openExternal = vi.fn(async (_url: string) => undefined);
    const open = desktopSignInOpener(openExternal);
    await open({ server: 'remote', url: 'https://auth.example.com/authorize?client_id=x' });
    expect(openExternal).toHaveBeenCalledWith('https://auth.example.com/authorize?client_id=x');
    await expect(open({ server: 'remote', url: 'file:///etc/passwd' })).rejects.toThrow(
      /MCP server "remote" gave a sign-in page that is not a web page \(file:\)/,
    );
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});
