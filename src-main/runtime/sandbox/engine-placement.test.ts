import { describe, expect, it } from 'vitest';
import { chooseEngine, type PlacementCandidate } from './engine-placement';

const GB = 1024 ** 3;
const needs = { cpus: 1, memoryBytes: 0.5 * GB };
const machine = (cpus: number, memoryGb: number, running: number) => ({
  cpus,
  memoryBytes: memoryGb * GB,
  runningContainers: running,
});

function candidate(over: Partial<PlacementCandidate> & Pick<PlacementCandidate, 'capacity'>) {
  return { endpoint: 'e', ours: 0, ...over };
}

describe('chooseEngine', () => {
  it('takes the engine with the most free room: its machine at the sandbox limits, less what runs there', () => {
    const verdict = chooseEngine(
      [
        candidate({ endpoint: 'small', capacity: machine(2, 8, 0) }), // 2 free (CPUs)
        candidate({ endpoint: 'big', capacity: machine(16, 8, 3) }), // 16 by memory, 13 free
        candidate({ endpoint: 'busy', capacity: machine(32, 64, 30) }), // 2 free
      ],
      needs,
    );
    expect(verdict).toEqual({ index: 1, free: 13 });
  });

  it('prefers the engine listed first when the room is the same', () => {
    const same = machine(4, 8, 1);
    expect(
      chooseEngine([candidate({ capacity: same }), candidate({ capacity: same })], needs),
    ).toEqual({
      index: 0,
      free: 3,
    });
  });

  it('holds an entry to its own max_containers, and counts its room from it', () => {
    const verdict = chooseEngine(
      [
        candidate({ endpoint: 'capped', maxContainers: 2, ours: 2, capacity: machine(64, 256, 2) }),
        candidate({ endpoint: 'roomy', maxContainers: 8, ours: 1, capacity: machine(4, 16, 1) }),
      ],
      needs,
    );
    expect(verdict).toEqual({ index: 1, free: 7 }); // its max_containers (8) less ours (1)
  });

  it("an entry's max_containers is its room, whatever else runs there (issue 26 item 13)", () => {
    const docker = (max: number) =>
      candidate({ endpoint: 'docker', maxContainers: max, capacity: machine(2, 8, 4) });
    const podman = candidate({ endpoint: 'podman', maxContainers: 1, capacity: machine(2, 8, 0) });
    // 4 unrelated containers on Docker used to send every sandbox to Podman
    expect(chooseEngine([docker(1000), podman], needs)).toEqual({ index: 0, free: 1000 });
    // equal room: the engine listed first
    expect(chooseEngine([docker(1), podman], needs)).toEqual({ index: 0, free: 1 });
  });

  it('skips engines that did not answer; with none left it says why for each', () => {
    const down = new Error('connect ENOENT /x.sock');
    expect(
      chooseEngine(
        [candidate({ capacity: down }), candidate({ capacity: machine(2, 4, 0) })],
        needs,
      ),
    ).toMatchObject({ index: 1 });
    const none = chooseEngine(
      [
        candidate({ endpoint: 'unix:///x.sock', capacity: down }),
        candidate({
          endpoint: 'tcp://b:2376 (TLS)',
          maxContainers: 1,
          ours: 1,
          capacity: machine(2, 4, 1),
        }),
      ],
      needs,
    );
    expect(none).toEqual({
      index: null,
      errors: [down],
      reason:
        'No engine of [sandbox] engines can take a sandbox now: unix:///x.sock: connect ENOENT ' +
        '/x.sock; tcp://b:2376 (TLS): at its max_containers (1)',
    });
  });

  it('still places on an overfull machine (the global cap decides how many run), the least loaded first', () => {
    const verdict = chooseEngine(
      [candidate({ capacity: machine(2, 4, 9) }), candidate({ capacity: machine(2, 4, 5) })],
      needs,
    );
    expect(verdict).toEqual({ index: 1, free: -3 });
  });
});
