/** A running command's output as it streamed (tool.output events joined). */
export interface LiveOutput {
  pieces: { stream: 'stdout' | 'stderr'; text: string }[];
  /** per stream: bytes past the streaming cap, not streamed (the result has the end) */
  omittedBytes?: { stdout?: number; stderr?: number };
}

/** The pieces holding the last `lines` lines. */
export function tailPieces(pieces: LiveOutput['pieces'], lines: number): LiveOutput['pieces'] {
  const out: LiveOutput['pieces'] = [];
  let left = lines;
  for (let i = pieces.length - 1; i >= 0 && left > 0; i--) {
    const piece = pieces[i]!;
    const parts = piece.text.replace(/\n$/, '').split('\n');
    const keep = parts.slice(-left);
    left -= keep.length;
    const trailing = piece.text.endsWith('\n') ? '\n' : '';
    out.unshift({ stream: piece.stream, text: keep.join('\n') + trailing });
  }
  return out;
}
