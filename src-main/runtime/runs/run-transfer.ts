/**
 * Export and import of one run as a single file: the history format itself (one
 * RunEvent per line, exactly as emitted), so an exported run replays identically
 * wherever it is imported; then its title when it was renamed (export-title.ts) and the
 * images its events name, one line each (export-images.ts), so both come along.
 *
 * A run the history already holds is never imported over: the same events again is said
 * and changes nothing (`isAlreadyPresent`); other events under that run id are refused
 * (delete the run first to import the file instead).
 *
 * An import finds everything by parsing (export-images.ts) and stores each event as the
 * app writes it (`eventLine`), not the file's text: a file written again by another JSON
 * writer (spaces after `:`, keys in another order, CRLF) holds the same events, and the
 * readers of a history rely on the app's own form (the page reader skips lines by the
 * `"seq":N` near their start). For a file the app exported, that is the file's own bytes,
 * so `runs show --jsonl` still replays the run exactly as it was emitted.
 */
import { isRunId } from '@shared/domain/ids';
import { isImageRef } from '@shared/image-ref';
import type { RunEvent } from '@shared/events';
import type { RunExport, RunImportResult, RunSummary } from '@shared/ipc';
import { summarize } from '@shared/run-summary';
import type { RunHistory } from './run-history';
import { parseRunLog } from './run-log';
import { badImageRefCount, imageLine, imageRefsOf, splitImageLines } from './export-images';
import { splitTitleLine, titleLine } from './export-title';
import {
  splitUserActionLines,
  userActionLine,
  userActionRecords,
  type UserActionsStore,
} from './export-user-actions';

export class RunTransferError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'RunTransferError';
  }
}

export function exportRun(
  history: RunHistory,
  runId: string,
  /** the commands typed into the run's terminal, exported after the events */
  userActions?: UserActionsStore,
): RunExport {
  const log = history.read(runId);
  if (!log || log.lines.length === 0)
    throw new RunTransferError('not_found', `No run with id ${runId}`);
  const lines = [...log.lines];
  const title = history.summary(runId)?.title;
  if (title !== undefined) lines.push(titleLine(title));
  for (const ref of imageRefsOf(log.events)) {
    // a file lost from the history is left out: the import then says it is missing
    const image = history.readImage?.(runId, ref);
    if (image) lines.push(imageLine(ref, image.bytes));
  }
  for (const record of userActions?.read(runId) ?? []) lines.push(userActionLine(record));
  return { fileName: `run-${runId}.jsonl`, content: `${lines.join('\n')}\n` };
}

export function importRun(
  history: RunHistory,
  content: string,
  fileName = 'the file',
  isLive: (runId: string) => boolean = () => false,
  /** where the commands typed into the run's terminal go (lines of the file, if any) */
  userActions?: UserActionsStore,
): RunImportResult {
  const titled = splitTitleLine(content, fileName);
  const typed = splitUserActionLines(titled.events);
  const split = splitImageLines(typed.events, fileName);
  const parsed = parseRunLog(split.events, null, fileName);
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
  if (isLive(runId)) {
    throw new RunTransferError(
      'conflict',
      `${fileName}: run ${runId} is running here; nothing imported`,
    );
  }
  const present = history.summary(runId);
  if (present) return alreadyPresent(history, present, parsed.events, fileName, titled.title);
  const base = summarize(parsed.events) as RunSummary;
  const last = parsed.events.at(-1);
  const summary: RunSummary = {
    ...base,
    ...(last ? { lastSeq: last.seq } : {}),
    ...(base.finishedAt === undefined ? { isInterrupted: true } : {}),
  };
  const actions = userActionRecords(typed.found, fileName, runId);
  const warnings = [...parsed.warnings, ...titled.warnings, ...split.warnings, ...actions.warnings];
  // the images first: a history never names a file a crash lost (run-images.ts)
  const named = new Set(imageRefsOf(parsed.events));
  for (const image of split.images) {
    if (!isImageRef(image.ref)) {
      // never repeated: it may be a path, or hold bytes a terminal would act on
      warnings.push(
        `${fileName} line ${image.lineNumber}: an image whose name is not an image ref; skipped`,
      );
      continue;
    }
    const name = `${fileName}: image ${image.ref.slice(0, 12)}`;
    if (!named.has(image.ref)) {
      warnings.push(`${name} is not named by any event; skipped`);
      continue;
    }
    const notKept = history.restoreImage
      ? history.restoreImage(runId, image.ref, image.data)
      : 'this history keeps no images';
    if (notKept !== undefined) warnings.push(`${name} not kept: ${notKept}`);
  }
  const carried = new Set(split.images.map((image) => image.ref));
  const absent = [...named].filter((ref) => !carried.has(ref)).length;
  if (absent > 0 && history.restoreImage) {
    warnings.push(
      `${fileName}: ${absent} image${absent === 1 ? '' : 's'} its events name ${absent === 1 ? 'is' : 'are'} not in the file (exported without images, or lost before the export); shown as missing`,
    );
  }
  const bad = badImageRefCount(parsed.events);
  if (bad > 0) {
    warnings.push(
      `${fileName}: ${bad} image${bad === 1 ? '' : 's'} its events name by something that is not an image ref; shown as missing`,
    );
  }
  history.addLog(runId, `${parsed.events.map(eventLine).join('\n')}\n`, summary);
  // what the user typed into its terminal where it was recorded (a user-actions log)
  if (actions.records.length > 0) {
    if (userActions) userActions.restore(runId, actions.records);
    else
      warnings.push(
        `${fileName}: this history keeps no user actions; its terminal commands were not kept`,
      );
  }
  // the name the user gave it where it was recorded
  if (titled.title !== undefined) history.rename(runId, titled.title);
  // as the history lists it from now on: marked imported
  return { summary: history.summary(runId) ?? summary, warnings };
}

/**
 * The file's run is already in the history. The same events (the file imported twice, or
 * exported from here): said, nothing changes, and a different title in the file is left
 * to a rename. Other events: refused, since importing over a run would lose what the
 * history holds of it (its own title, its forks' parent).
 */
function alreadyPresent(
  history: RunHistory,
  present: RunSummary,
  events: RunEvent[],
  fileName: string,
  fileTitle: string | undefined,
): RunImportResult {
  const runId = present.runId;
  const name = present.title === undefined ? '' : ` ("${present.title}")`;
  const held = history.read(runId)?.lines ?? [];
  const isSame = held.length === events.length && events.every((e, i) => eventLine(e) === held[i]);
  if (!isSame) {
    throw new RunTransferError(
      'conflict',
      `${fileName}: run ${runId}${name} is already in the history, with other events (${held.length} there, ${events.length} in the file); nothing imported. An import never replaces a run: delete it first to import this file instead`,
    );
  }
  const warnings =
    fileTitle !== undefined && fileTitle !== present.title
      ? [
          `${fileName} names the run "${fileTitle}"; the history keeps ${present.title === undefined ? 'it untitled' : `"${present.title}"`} (rename it to change that)`,
        ]
      : [];
  return { summary: present, warnings, isAlreadyPresent: true };
}

/**
 * An event as the run wrote it (run-manager: `JSON.stringify` of the stamped event, whose
 * envelope comes first). For a line the app wrote this gives back the same bytes; for a
 * line another writer re-serialised, the app's form of the same event.
 */
function eventLine(event: RunEvent): string {
  const { v, runId, seq, ts, ...payload } = event;
  return JSON.stringify({ v, runId, seq, ts, ...payload });
}
