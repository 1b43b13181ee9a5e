/**
 * A drag handle on a side pane's inner edge. Pointer drag or the arrow keys (focus it
 * first) change the width; the width is saved when the drag ends.
 */
import { useRef } from 'react';
import { clampWidth, type Pane } from './pane-widths';

const KEY_STEP = 16;

export function PaneSplitter(props: {
  pane: Pane;
  width: number;
  /** `isFinal`: the drag ended (or a key moved it): the width is to be saved */
  onResize(width: number, isFinal: boolean): void;
  testId: string;
}) {
  const { pane, width, onResize, testId } = props;
  const start = useRef<{ x: number; width: number } | null>(null);
  // the sidebar grows to the right, the inspector to the left
  const sign = pane === 'sidebar' ? 1 : -1;
  return (
    <div
      className={`pane-splitter pane-splitter-${pane}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={pane === 'sidebar' ? 'Resize the run history' : 'Resize the inspector'}
      aria-valuenow={width}
      tabIndex={0}
      data-testid={testId}
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = { x: e.clientX, width };
      }}
      onPointerMove={(e) => {
        if (!start.current) return;
        const next = start.current.width + sign * (e.clientX - start.current.x);
        onResize(clampWidth(pane, next), false);
      }}
      onPointerUp={(e) => {
        if (!start.current) return;
        const next = start.current.width + sign * (e.clientX - start.current.x);
        start.current = null;
        onResize(clampWidth(pane, next), true);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        const delta = (e.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP) * sign;
        onResize(clampWidth(pane, width + delta), true);
      }}
    />
  );
}
