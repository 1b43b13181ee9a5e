import { describe, expect, it, vi } from 'vitest';
import { FakeWebContents } from './testing/electron-mock';
import { hardenWebContents, isSafeExternalUrl } from './harden';

const ORIGINS = ['app://workbench'];

function hardened() {
  const wc = new FakeWebContents();
  const openExternal = vi.fn();
  hardenWebContents(wc as never, ORIGINS, openExternal);
  return { wc, openExternal };
}

function navigate(wc: FakeWebContents, event: string, url: string): boolean {
  const e = { preventDefault: vi.fn(), url };
  wc.emit(event, e, url);
  return e.preventDefault.mock.calls.length > 0;
}

describe('hardenWebContents (E3, E4)', () => {
  it('denies every new window, handing only plain https links to the system browser', () => {
    const { wc, openExternal } = hardened();
    const hostile = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://attacker/share',
      'ms-msdt:/id PCWDiagnostic',
      'data:text/html,<script>1</script>',
      'http://example.com',
      'https://user:pass@example.com',
      'vbscript:msgbox',
      'app://workbench/../../etc',
      'chrome://settings',
      'about:blank',
      'not a url',
    ];
    for (const url of hostile) {
      expect(wc.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
    expect(openExternal).not.toHaveBeenCalled();
    expect(wc.windowOpenHandler?.({ url: 'https://docs.example.com/page' })).toEqual({
      action: 'deny',
    });
    expect(openExternal).toHaveBeenCalledWith('https://docs.example.com/page');
  });

  it('prevents navigation away from the app, in the page and in frames, and webviews', () => {
    const { wc } = hardened();
    expect(navigate(wc, 'will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate(wc, 'will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate(wc, 'will-navigate', 'app://workbench.evil/x')).toBe(true);
    expect(navigate(wc, 'will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate(wc, 'will-navigate', 'app://workbench/index.html')).toBe(false);
    const attach = { preventDefault: vi.fn() };
    wc.emit('will-attach-webview', attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });
});
