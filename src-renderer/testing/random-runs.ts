/**
 * Random runs for the property tests of issue 27 (a run folded slice by slice): streams,
 * retries, errors, duplicates, stuck markers, dropped memory and (optionally) debugger
 * edits of earlier messages, and random cuts of a run's events into slices.
 */
import type { RunEvent } from '@shared/events';
import { RunScript, type ScriptedStep } from './run-script';

export function randomOf(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

export function randomRun(seed: number, withEdits = false): RunEvent[] {
  const r = randomOf(seed);
  const script = new RunScript(`run-${seed}`, 'manus', { maxSteps: 100 }).start('a random task');
  const steps = 5 + r.int(40);
  for (let i = 1; i <= steps; i++) {
    const calls = Array.from({ length: r.int(3) }, (_, c) => ({
      name: r.chance(0.5) ? 'bash' : 'python_execute',
      args: { command: `cmd ${i} ${c}` },
      output: `out ${i}`.repeat(1 + r.int(30)),
      durationMs: r.int(500),
      ...(r.chance(0.2) ? { error: `failed ${i}`, exitCode: 1 } : { exitCode: 0 }),
    }));
    const spec: ScriptedStep = {
      content: r.chance(0.15) ? 'the same reply again' : `reply ${i} `.repeat(1 + r.int(20)),
      calls,
      modelMs: r.int(300),
      ...(r.chance(0.3) ? { streamChunk: 1 + r.int(12) } : {}),
      ...(r.chance(0.2) ? { retryDelays: [r.int(100)] } : {}),
      ...(r.chance(0.2) ? { queuedMs: r.int(50) } : {}),
      ...(r.chance(0.2) ? { prompt: 'go on' } : {}),
    };
    script.addStep(spec);
    if (r.chance(0.1)) script.stuck('content', [1]);
    if (r.chance(0.05)) script.truncate([1, 2], 10);
    if (withEdits && r.chance(0.15)) editEarlier(script, r.int(script.nextMemoryIndex), i);
    script.endStep(r.int(900));
  }
  script.finish(r.chance(0.8) ? 'finished' : 'error', 'it broke');
  return script.events;
}

/** The events cut into random slices (single events, whole runs and everything between). */
export function randomSlices(events: readonly RunEvent[], seed: number): RunEvent[][] {
  const r = randomOf(seed * 7 + 3);
  const slices: RunEvent[][] = [];
  for (let at = 0; at < events.length;) {
    const size = r.chance(0.2) ? 1 : 1 + r.int(r.chance(0.5) ? 8 : 120);
    slices.push(events.slice(at, at + size));
    at += size;
  }
  return slices;
}

/** A debugger edit of an earlier message: its row changes (and gets an edit mark). */
function editEarlier(script: RunScript, index: number, step: number): void {
  script.emit({
    type: 'run.edited',
    agent: 'manus',
    step,
    by: 'ui',
    edit: { kind: 'edit_message', index, role: 'assistant', before: null, after: `edited ${step}` },
  });
}
