/**
 * Which engine gets the next sandbox (`[sandbox] engines`, issue 18 item 3): the one
 * with the most free capacity. An engine's free room is its own `max_containers` less this
 * app's sandboxes there when the entry sets one (the user said what it may take), and
 * otherwise what its machine holds at the sandbox's limits (CPUs / cpu_limit, memory /
 * memory_limit) less every container running there (other apps' use the machine too). Ties go to the engine listed first, so a list reads as an order of preference.
 * Plain function: the pool asks the engines, this decides.
 */
import type { EngineCapacity } from './engine';

export interface PlacementCandidate {
  endpoint: string;
  maxContainers?: number;
  /** this app's sandboxes on that engine now (created or being created) */
  ours: number;
  /** what the engine said, or why it did not answer */
  capacity: EngineCapacity | Error;
}

export interface SandboxNeeds {
  cpus: number;
  memoryBytes: number;
}

export type PlacementVerdict =
  { index: number; free: number } | { index: null; reason: string; errors: Error[] };

export function chooseEngine(
  candidates: readonly PlacementCandidate[],
  needs: SandboxNeeds,
): PlacementVerdict {
  let best: { index: number; free: number } | null = null;
  const refusals: string[] = [];
  const errors: Error[] = [];
  candidates.forEach((candidate, index) => {
    const { capacity } = candidate;
    if (capacity instanceof Error) {
      errors.push(capacity);
      refusals.push(`${candidate.endpoint}: ${capacity.message}`);
      return;
    }
    if (candidate.maxContainers !== undefined && candidate.ours >= candidate.maxContainers) {
      refusals.push(`${candidate.endpoint}: at its max_containers (${candidate.maxContainers})`);
      return;
    }
    const free = freeSlots(candidate, capacity, needs);
    if (!best || free > best.free) best = { index, free };
  });
  if (best) return best;
  return {
    index: null,
    errors,
    reason: `No engine of [sandbox] engines can take a sandbox now: ${refusals.join('; ')}`,
  };
}

function freeSlots(
  candidate: PlacementCandidate,
  capacity: EngineCapacity,
  needs: SandboxNeeds,
): number {
  // The entry's own cap is its room (issue 26 item 13): other apps' containers there do not
  // count against it, or a Docker running 4 unrelated containers lost every sandbox to a
  // Podman capped at 1.
  if (candidate.maxContainers !== undefined) return candidate.maxContainers - candidate.ours;
  const byMachine =
    Math.max(
      1,
      Math.floor(
        Math.min(
          needs.cpus > 0 && capacity.cpus > 0 ? capacity.cpus / needs.cpus : Infinity,
          needs.memoryBytes > 0 && capacity.memoryBytes > 0
            ? capacity.memoryBytes / needs.memoryBytes
            : Infinity,
        ),
      ),
    ) - capacity.runningContainers;
  return Number.isFinite(byMachine) ? byMachine : 0;
}
