/**
 * Export and import of one run as a single file: the history format itself (one
 * RunEvent per line, exactly as emitted), so an exported run replays identically
 * wherever it is imported.
 */
import { isRunId } from '@shared/domain/ids';
import type { RunExport, RunImportResult, RunSummary } from '@shared/ipc';
import { summarize } from '@shared/run-summary';
import type { RunHistory } from './run-history';
import { parseRunLog } from './run-log';

export class RunTransferError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'RunTransferError';
  }
}

export function exportRun(history: RunHistory, runId: string): RunExport {
  const log = history.read(runId);
  if (!log || log.lines.length === 0)
    throw new RunTransferError('not_found', `No run with id ${runId}`);
  return { fileName: `run-${runId}.jsonl`, content: `${log.lines.join('\n')}\n` };
}

export function importRun(
  history: RunHistory,
  content: string,
  fileName = 'the file',
  isLive: (runId: string) => boolean = () => false,
): RunImportResult {
  const parsed = parseRunLog(content, null, fileName);
  const first = parsed.events[0];
  if (!first) {
    throw new RunTransferError(
      'invalid_input',
      `${fileName} holds no run events (${parsed.warnings[0] ?? 'it is empty'})`,
    );
  }
  if (first.type !== 'run.started' || first.seq !== 1) {
    throw new RunTransferError(
      'invalid_input',
      `${fileName} does not start with the run's first event (run.started, seq 1)`,
    );
  }
  const runId = first.runId;
  if (!isRunId(runId)) {
    throw new RunTransferError('invalid_input', `${fileName}: "${runId}" is not a valid run id`);
  }
  if (history.summary(runId) || isLive(runId)) {
    throw new RunTransferError('conflict', `Run ${runId} is already in the history`);
  }
  const base = summarize(parsed.events) as RunSummary;
  const last = parsed.events.at(-1);
  const summary: RunSummary = {
    ...base,
    ...(last ? { lastSeq: last.seq } : {}),
    ...(base.finishedAt === undefined ? { isInterrupted: true } : {}),
  };
  history.addLog(runId, `${parsed.lines.join('\n')}\n`, summary);
  return { summary, warnings: parsed.warnings };
}
