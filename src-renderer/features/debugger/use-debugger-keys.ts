/**
 * Debugger keys in the run view: F8 or `p` pauses / resumes, F10 or `n` steps one
 * think/act cycle, F11 or `m` steps over the model call only (its proposed tool calls are
 * shown before they run). They do not clash with the timeline's keys (j/k, arrows,
 * Enter, Escape, `/`), and keys typed into form fields are left alone.
 */
import { useEffect } from 'react';

export interface DebuggerKeyActions {
  togglePause(): void;
  step(): void;
  stepModel(): void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

const KEYS = new Map<string, keyof DebuggerKeyActions>([
  ['F8', 'togglePause'],
  ['p', 'togglePause'],
  ['F10', 'step'],
  ['n', 'step'],
  ['F11', 'stepModel'],
  ['m', 'stepModel'],
]);

export function useDebuggerKeys(isEnabled: boolean, actions: DebuggerKeyActions): void {
  useEffect(() => {
    if (!isEnabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const act = KEYS.get(e.key);
      if (!act || (e.shiftKey && e.key.length === 1)) return;
      e.preventDefault();
      actions[act]();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isEnabled, actions]);
}
