/**
 * A vitest globalSetup for the integration project: after the whole suite, no container
 * with the app's label may remain from this run. Use it from vitest.config.ts:
 *
 *   globalSetup: ['src-main/runtime/sandbox/testing/no-leftover-containers.ts']
 *
 * The engine is shared (other test runs, a desktop app), so it only blames containers
 * that appeared during this run and whose owner process is gone, which is what a leak
 * looks like once every test worker has exited. It removes them, then fails the run.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LABELS } from '../container-policy';
import { currentOwner, ownerVerdict } from '../owner';

const run = promisify(execFile);

interface Listed {
  id: string;
  labels: Record<string, string>;
}

async function managedContainers(): Promise<Listed[] | null> {
  try {
    const { stdout } = await run(
      'docker',
      [
        'ps',
        '-a',
        '--no-trunc',
        '--filter',
        `label=${LABELS.managed}=true`,
        '--format',
        '{{.ID}}\t{{json .Labels}}',
      ],
      { timeout: 15_000 },
    );
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id = '', labels = '""'] = line.split('\t');
        // `docker ps` prints labels as "k=v,k=v".
        const text = JSON.parse(labels) as string;
        const pairs = text ? text.split(',').map((kv) => kv.split('=') as [string, string]) : [];
        return { id, labels: Object.fromEntries(pairs) };
      });
  } catch {
    return null; // no engine: nothing can have leaked
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const before = new Set((await managedContainers())?.map((c) => c.id) ?? []);
  return async function teardown() {
    const after = (await managedContainers()) ?? [];
    const self = currentOwner('vitest-global-teardown');
    const leaked = after.filter(
      (c) => !before.has(c.id) && ownerVerdict(c.labels, self) === 'gone',
    );
    if (leaked.length === 0) return;
    await run('docker', ['rm', '-f', ...leaked.map((c) => c.id)]).catch(() => undefined);
    throw new Error(
      `${leaked.length} sandbox container(s) were left behind by the test run (removed now): ` +
        leaked
          .map((c) => `${c.id.slice(0, 12)} (session ${c.labels[LABELS.session] ?? '?'})`)
          .join(', '),
    );
  };
}
