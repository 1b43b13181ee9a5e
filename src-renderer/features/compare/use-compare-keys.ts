/**
 * Keys of the compare view: n or ] the next difference, p or [ the previous one, j / k
 * (or the arrows) the next / previous row, Enter opens or closes the current row. Keys
 * typed into form fields are left alone; the timeline's keys are not active here.
 */
import { useEffect, useRef } from 'react';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

export function useCompareKeys(handlers: {
  step(direction: 1 | -1, toDifference: boolean): void;
  toggleCurrent(): void;
}) {
  // the latest handlers, without re-registering the listener on every render
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const { step, toggleCurrent } = latest.current;
      const act = (action: () => void) => {
        e.preventDefault();
        action();
      };
      switch (e.key) {
        case 'n':
        case ']':
          return act(() => step(1, true));
        case 'p':
        case '[':
          return act(() => step(-1, true));
        case 'j':
        case 'ArrowDown':
          return act(() => step(1, false));
        case 'k':
        case 'ArrowUp':
          return act(() => step(-1, false));
        case 'Enter':
          // Enter on a button is the button's own click
          if (e.target instanceof HTMLButtonElement) return;
          return act(toggleCurrent);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
