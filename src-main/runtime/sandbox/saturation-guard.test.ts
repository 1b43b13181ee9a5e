import { describe, expect, it } from 'vitest';
import { SaturationGuard } from './saturation-guard';

function target(counts: (number | null)[], limited: number | null = null) {
  const state = { restarts: 0, looks: 0 };
  const guard = new SaturationGuard({
    pidsLimit: 256,
    countLimited: async () => limited,
    countProcesses: async () => counts[Math.min(state.looks++, counts.length - 1)] ?? null,
    restart: async () => {
      state.restarts++;
    },
    isAlive: () => false, // no background look in these tests
    isBusy: () => false,
  });
  return { guard, state };
}

describe('SaturationGuard', () => {
  it('restarts a full sandbox after a call and says so', async () => {
    const { guard, state } = target([240]);
    expect(await guard.afterCall()).toMatch(/reached its process limit \(256 processes/);
    expect(state.restarts).toBe(1);
  });

  it('looks again at a count past half the limit: a bomb fills up, a busy workload does not', async () => {
    // the count of a bomb wanders near the limit (measured 163-254 at limit 256)
    const bomb = target([180, 163, 251]);
    expect(await bomb.guard.afterCall()).not.toBeNull();
    expect(bomb.state).toEqual({ restarts: 1, looks: 3 });
    const busy = target([180, 185, 170, 190], 192);
    expect(await busy.guard.afterCall()).toBeNull();
    expect(busy.state).toEqual({ restarts: 0, looks: 4 });
    // a listing that keeps missing the bomb's short-lived processes: the cgroup is full
    const hidden = target([180, 185, 170, 190], 256);
    expect(await hidden.guard.afterCall()).not.toBeNull();
  });

  it('leaves a normal sandbox alone after one look', async () => {
    const { guard, state } = target([3]);
    expect(await guard.afterCall()).toBeNull();
    expect(state).toEqual({ restarts: 0, looks: 1 });
  });

  it('trusts a call that saw the table full; a missing count asks the cgroup', async () => {
    const known = target([null]);
    expect(await known.guard.afterCall(true)).not.toBeNull();
    const unknown = target([null]);
    expect(await unknown.guard.afterCall()).toBeNull();
  });

  it('takes an empty or missing listing as blind, not as idle: the cgroup decides', async () => {
    // dockerd answered top with Processes: null while a bomb kept the pids cgroup full
    for (const listing of [null, 0]) {
      const bomb = target([listing], 256);
      expect(await bomb.guard.afterCall(), `listing ${listing}`).not.toBeNull();
      expect(bomb.state.restarts).toBe(1);
      const idle = target([listing], 2);
      expect(await idle.guard.afterCall()).toBeNull();
    }
  });

  it('checks before a call only when the last check is more than a second old', async () => {
    const { guard, state } = target([3]);
    await guard.afterCall();
    expect(await guard.beforeCall()).toBeNull();
    expect(state.looks).toBe(1);
  });

  it('looks again half a second after a call, and reports a restart with the next call', async () => {
    let counts = [3];
    let restarts = 0;
    let isAlive = true;
    const guard = new SaturationGuard({
      pidsLimit: 256,
      countProcesses: async () => counts.shift() ?? 3,
      countLimited: async () => null,
      restart: async () => {
        restarts++;
      },
      isAlive: () => isAlive,
      isBusy: () => false,
    });
    expect(await guard.afterCall()).toBeNull(); // the bomb has not grown yet
    counts = [254];
    await new Promise((resolve) => setTimeout(resolve, 700)); // the look half a second later
    expect(restarts).toBe(1);
    expect(await guard.beforeCall()).toMatch(/reached its process limit/);
    expect(await guard.afterCall()).toMatch(/reached its process limit/); // in the call's result
    expect(await guard.beforeCall()).toBeNull(); // said once
    isAlive = false;
  });
});
