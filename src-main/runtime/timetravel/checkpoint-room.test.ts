/**
 * The room a run's next snapshot gets: the least of its own cap, the budget (its own
 * snapshots count against it) and the disk less the reserve kept for the histories.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diskReserve, diskSpace, roomFor } from './checkpoint-room';

const MB = 1024 * 1024;
const limits = { budget: 100 * MB, runLimit: 40 * MB, stepLimit: 10 * MB };

describe('roomFor', () => {
  it('is the least of the run cap, the budget and the disk, and says which', () => {
    expect(roomFor(limits, 30 * MB, undefined)).toEqual({
      bytes: 10 * MB,
      reason: 'run_limit',
      limit: 40 * MB,
    });
    expect(roomFor({ ...limits, budget: 35 * MB }, 30 * MB, undefined)).toMatchObject({
      bytes: 5 * MB,
      reason: 'budget',
    });
    const disk = { free: 10 * MB, total: 1000 * MB };
    expect(roomFor(limits, 0, disk)).toEqual({
      bytes: 10 * MB - diskReserve(1000 * MB),
      reason: 'disk_full',
      limit: 10 * MB,
    });
    expect(roomFor(limits, 41 * MB, undefined).bytes).toBeLessThan(0);
  });

  it('counts the disk twice for a snapshot staged before its archive is written, the caps once', () => {
    const disk = { free: 50 * MB, total: 100 * MB };
    expect(roomFor({ ...limits, runLimit: 1000 * MB }, 0, disk, 2)).toEqual({
      bytes: Math.floor((50 * MB - diskReserve(100 * MB)) / 2),
      reason: 'disk_full',
      limit: 50 * MB,
    });
    expect(roomFor(limits, 30 * MB, disk, 2)).toMatchObject({
      bytes: 10 * MB,
      reason: 'run_limit',
    });
  });

  it('keeps 5% of the disk for the histories, at most 512 MB', () => {
    expect(diskReserve(24 * MB)).toBe(Math.ceil(24 * MB * 0.05));
    expect(diskReserve(500 * 1024 * MB)).toBe(512 * MB);
    const here = diskSpace(mkdtempSync(join(tmpdir(), 'wb-room-')));
    expect(here?.total).toBeGreaterThan(0);
    expect(here?.free).toBeLessThanOrEqual(here?.total ?? 0);
  });
});
