import { describe, expect, it } from 'vitest';
import { Session } from '../session/session';
import { SandboxSlots } from './sandbox-slots';

function slots(capacity: number) {
  const evicted: string[] = [];
  const s: SandboxSlots = new SandboxSlots(
    {
      isBusy: () => false,
      evict: async (session) => {
        evicted.push(session.id);
        s.free(session.id);
      },
    },
    capacity,
  );
  return { s, evicted };
}

const session = (id: string) => new Session(id, `/nowhere/${id}`);

describe('SandboxSlots and a warm pool’s spares', () => {
  it('gives a spare only a slot free now, with room left for sessions about to need theirs', async () => {
    const { s } = slots(3);
    await s.reserve(session('run-a'), 3, undefined, () => undefined);
    expect(s.tryReserveSpare(session('spare-1'), 3, 1)).toBe(true);
    // one slot left, kept for a live run that has not created its sandbox yet
    expect(s.tryReserveSpare(session('spare-2'), 3, 1)).toBe(false);
    expect(s.tryReserveSpare(session('spare-2'), 3, 0)).toBe(true);
    expect(s.tryReserveSpare(session('spare-3'), 3, 0)).toBe(false);
    expect(s.inUse).toBe(3);
  });

  it('never queues a spare behind or before a waiting session, and gives a spare back first', async () => {
    const { s, evicted } = slots(2);
    const idle = session('idle-run');
    await s.reserve(idle, 2, undefined, () => undefined);
    s.lease(idle.id)(); // its run ended: idle, and older than the spare
    expect(s.tryReserveSpare(session('spare'), 2, 0)).toBe(true);
    const waiting = s.reserve(session('new-run'), 2, undefined, () => undefined);
    expect(s.tryReserveSpare(session('spare-2'), 2, 0)).toBe(false);
    await waiting;
    // the spare went, not the idle session's sandbox (its shell and files stay)
    expect(evicted).toEqual(['spare']);
  });

  it('a spare taken by a run is no longer given back before the others', async () => {
    const { s, evicted } = slots(2);
    const idle = session('idle-run');
    await s.reserve(idle, 2, undefined, () => undefined);
    s.lease(idle.id)();
    await new Promise((r) => setTimeout(r, 5));
    expect(s.tryReserveSpare(session('taken'), 2, 0)).toBe(true);
    s.adoptSpare('taken');
    await s.reserve(session('new-run'), 2, undefined, () => undefined);
    // least recently used first, as for any two sessions
    expect(evicted).toEqual(['idle-run']);
  });
});
