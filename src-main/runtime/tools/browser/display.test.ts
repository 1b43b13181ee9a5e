import { describe, expect, it } from 'vitest';
import { chooseHeadless } from './display';

describe('headless = false without a display', () => {
  it('falls back to headless with a warning on Linux with neither DISPLAY nor WAYLAND_DISPLAY', () => {
    expect(chooseHeadless(false, {}, 'linux')).toMatchObject({
      headless: true,
      warning: expect.stringMatching(/no display/),
    });
    expect(chooseHeadless(false, { DISPLAY: ':99' }, 'linux')).toEqual({ headless: false });
    expect(chooseHeadless(false, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({
      headless: false,
    });
    expect(chooseHeadless(false, {}, 'darwin')).toEqual({ headless: false });
    expect(chooseHeadless(true, {}, 'linux')).toEqual({ headless: true });
  });
});
