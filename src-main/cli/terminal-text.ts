/**
 * Text from models and tools printed to a terminal (issue 12 item 7): an escape sequence
 * in a tool's output reached the terminal raw in `workbench run`, where it can retitle the
 * window, clear the screen, rewrite earlier lines (\r, cursor moves), hide text, or on some
 * terminals write to the clipboard (OSC 52). Every control character is shown as a
 * visible escape instead (`\x1b`, `\r`, `\u202e`), so the text is still there to read.
 */

/**
 * C0 controls except line feed and tab, DEL, C1 controls (0x9b is a one-byte CSI), and
 * the bidirectional overrides and isolates that reorder what a line appears to say.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/** `text` with every terminal control character made visible; newlines and tabs kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}
