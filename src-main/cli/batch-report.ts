/**
 * The batch grid as text: one row per task, one column per profile; each cell says what
 * its runs' verdicts were (the labels `runs list` shows, run-outcome.ts), what one run
 * took (the mean over its ended runs, said as such: a sum over repeats read like one
 * run), how many checks passed, and what is still to come.
 */
import type { BatchCell, BatchGrid, BatchProgress, BatchTask } from '@shared/domain/batch';
import { cellFigures, meanText } from '@shared/batch-grid';
import { plural, tallyParts } from '@shared/run-outcome';
import { oneLine } from './format-event';

export function progressLine(progress: BatchProgress): string {
  const eta = progress.etaMs !== undefined ? `, about ${formatMs(progress.etaMs)} left` : '';
  return `batch ${progress.batchId}: ${progress.done}/${progress.total} done, ${progress.running} running, ${progress.queued} queued${eta}`;
}

export function formatGrid(grid: BatchGrid): string {
  const header = ['task', ...grid.profiles];
  const rows = grid.cells.map((row, taskIndex) => [
    `${taskIndex + 1}. ${agentOf(grid.tasks[taskIndex])}${oneLine(grid.tasks[taskIndex]?.task ?? '', 40)}`,
    ...row.map(formatCell),
  ]);
  const widths = header.map((_, c) =>
    Math.max(...[header, ...rows].map((r) => (r[c] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** `[a@3] ` before the task of a row of a batch over several agents or versions. */
function agentOf(task: BatchTask | undefined): string {
  const label = task?.agentLabel ?? task?.agent;
  return label !== undefined ? `[${label}] ` : '';
}

export function formatCell(cell: BatchCell): string {
  const parts: string[] = [];
  const tally = tallyParts(cell.verdicts).map((part) => part.text);
  parts.push(tally.length > 0 ? tally.join(', ') : 'no run ended');
  const figures = cellFigures(cell);
  if (figures) {
    const { mean } = figures;
    const perRun = `${meanText(mean.steps)} step${mean.steps === 1 ? '' : 's'}, ${mean.tokens} tok, ${formatMs(mean.durationMs)}`;
    parts.push(figures.runs === 1 ? perRun : `per run ${perRun} (mean of ${figures.runs})`);
  }
  if (cell.checksRun > 0) parts.push(`check ${cell.checksPassed}/${cell.checksRun}`);
  if (cell.stuck > 0) {
    parts.push(cell.ended > 1 ? `stuck ${cell.stuck}× in all` : `stuck ${cell.stuck}×`);
  }
  const running = cell.runs.filter((r) => r.status === 'running').length;
  const queued = cell.runs.filter((r) => r.status === 'queued').length;
  if (running > 0) parts.push(`${running} running`);
  if (queued > 0) parts.push(`${plural(queued, 'run')} queued`);
  return parts.join(' · ');
}

export function formatMs(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
