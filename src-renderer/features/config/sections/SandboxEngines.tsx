import type { EngineStatusRow } from '@shared/domain/settings-sections';
import { TEST_IDS } from '../../../test-ids';

function gigabytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** What an engine offers, in one line: "8 CPUs · 15.6 GB · 3 running · 1 of ours (max 4)". */
export function engineSummary(row: EngineStatusRow): string {
  const parts: string[] = [];
  if (row.cpus !== undefined) parts.push(`${row.cpus} CPU${row.cpus === 1 ? '' : 's'}`);
  if (row.memoryBytes !== undefined) parts.push(gigabytes(row.memoryBytes));
  if (row.runningContainers !== undefined) parts.push(`${row.runningContainers} running`);
  parts.push(
    `${row.ours} sandbox${row.ours === 1 ? '' : 'es'} of this app` +
      (row.maxContainers !== undefined ? ` (max ${row.maxContainers})` : ''),
  );
  return parts.join(' · ');
}

/**
 * `[sandbox] engines` as they answer now: new sandboxes go to the one with the most free
 * room. The list itself is edited in config.toml (addresses, certificates, host keys).
 */
export function SandboxEngines({ engines }: { engines: EngineStatusRow[] }) {
  return (
    <div className="sandbox-engines" data-testid={TEST_IDS.sandboxEngines}>
      <span className="muted">
        Engines ([sandbox] engines in config.toml; a new sandbox goes to the one with the most free
        room):
      </span>
      <ul>
        {engines.map((row) => (
          <li
            key={row.endpoint}
            data-testid={TEST_IDS.sandboxEngineRow}
            data-state={row.error ? 'down' : 'up'}
          >
            <code>{row.endpoint}</code>{' '}
            {row.error ? (
              <span className="warn-text">does not answer: {row.error}</span>
            ) : (
              <span>
                {row.version} · {engineSummary(row)}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
