/**
 * The batch grid as text: one row per task, one column per profile; each cell says how
 * many runs finished, how many checks passed, and the steps, tokens, time and stuck
 * detections of its runs (totals over the repeats).
 */
import type { BatchCell, BatchGrid, BatchProgress } from '@shared/domain/batch';
import { oneLine } from './format-event';

export function progressLine(progress: BatchProgress): string {
  const eta = progress.etaMs !== undefined ? `, about ${formatMs(progress.etaMs)} left` : '';
  return `batch ${progress.batchId}: ${progress.done}/${progress.total} done, ${progress.running} running, ${progress.queued} queued${eta}`;
}

export function formatGrid(grid: BatchGrid): string {
  const header = ['task', ...grid.profiles];
  const rows = grid.cells.map((row, taskIndex) => [
    `${taskIndex + 1}. ${oneLine(grid.tasks[taskIndex]?.task ?? '', 40)}`,
    ...row.map(formatCell),
  ]);
  const widths = header.map((_, c) =>
    Math.max(...[header, ...rows].map((r) => (r[c] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

function formatCell(cell: BatchCell): string {
  const runs = cell.runs.length;
  const ended = cell.runs.filter((r) => r.status === 'done');
  const finished = ended.filter((r) => r.outcome === 'finished').length;
  const checks = cell.checksRun > 0 ? ` check ${cell.checksPassed}/${cell.checksRun}` : '';
  const stuck = cell.stuck > 0 ? ` stuck ${cell.stuck}` : '';
  return `${finished}/${runs} ok${checks} ${cell.steps} steps ${cell.tokens} tok ${formatMs(cell.durationMs)}${stuck}`;
}

export function formatMs(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
