/**
 * `workbench runs list | show RUN_ID [--jsonl] | export RUN_ID [-o FILE] | import FILE | diff A B
 * | patch RUN [--from N --to M] * | rename RUN_ID TITLE | fork | resume | continue | delete RUN_ID`:
 * the run history from the command line. `show --jsonl` replays the persisted events
 * exactly as they were emitted (the same bytes `run --jsonl` printed). Damaged lines
 * are skipped and reported on stderr, never fatal.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary } from '@shared/ipc';
import { RunStore } from '../../runtime/runs/run-store';
import { exportRun, importRun, RunTransferError } from '../../runtime/runs/run-transfer';
import { UserActionsLog } from '../../runtime/terminal/user-actions-log';
import { defaultHome } from '../../runtime/config/home';
import { terminalSafe } from '../terminal-text';
import { runVerdict, stepsText, healthParts } from '@shared/run-outcome';
import { runsDiffCommand } from './runs-diff';
import { renameCommand } from './runs-edit';
import { runsPatchCommand } from './runs-patch';
import { parseCommandArgs } from '../parse-args';
import { RunPrinter } from '../run-printer';
import { resolveRunRef } from '../run-ref';
import { describeFilter, filterRuns, parseRunsFilter } from '../runs-filter';
import { EXIT, HelpRequested, UsageError } from '../usage-error';
import { helpTopicAfter } from '../usage';

function openStore(): RunStore {
  return new RunStore(join(defaultHome(), 'runs'), {
    onWarning: (message) => process.stderr.write(`workbench: ${message}\n`),
  });
}

export async function runsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help') throw new HelpRequested('runs');
  if (sub === 'help') throw new HelpRequested(helpTopicAfter('runs', rest));
  switch (sub) {
    case 'list':
      return list(rest);
    case 'show':
      return show(rest);
    case 'export':
      return exportCommand(rest);
    case 'import':
      return importCommand(rest);
    case 'diff':
      return runsDiffCommand(rest, openStore);
    case 'rename':
      return renameCommand(rest, openStore);
    case 'patch':
      return runsPatchCommand(rest, openStore);
    // The runtime (model clients, sandbox) loads only for these.
    case 'fork':
      return (await import('./runs-lineage')).forkCommand(rest);
    case 'resume':
      return (await import('./runs-lineage')).resumeCommand(rest);
    case 'continue':
      return (await import('./runs-lineage')).continueCommand(rest);
    case 'delete':
      return (await import('./runs-lineage')).deleteCommand(rest);
    default:
      throw new UsageError(
        sub === undefined
          ? 'runs needs a subcommand: list, show RUN_ID, export RUN_ID, import FILE, diff A B, patch RUN, rename RUN_ID TITLE, fork RUN --at STEP, resume RUN, continue RUN MESSAGE, delete RUN'
          : `unknown runs subcommand "${sub}" (list, show, export, import, diff, patch, rename, fork, resume, continue, delete)`,
      );
  }
}

/** The run's one badge, as the UI shows it (docs/run-outcome.md). */
export function statusOf(summary: RunSummary): string {
  return runVerdict(summary).label;
}

function list(args: string[]): number {
  const { values, positionals } = parseCommandArgs('runs list', args, {
    json: { type: 'boolean', default: false },
    limit: { type: 'string' },
    agent: { type: 'string' },
    status: { type: 'string', multiple: true },
    batch: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError('runs list takes no arguments');
  const filter = parseRunsFilter(values);
  const store = openStore();
  const all = store.list();
  store.close();
  const runs = filterRuns(all, filter);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return EXIT.finished;
  }
  if (runs.length === 0) {
    const asked = describeFilter(filter);
    process.stderr.write(
      all.length === 0 || asked === ''
        ? 'No runs yet. Start one with: workbench run "TASK"\n'
        : `No runs match ${terminalSafe(asked)} (of ${all.length} in the history)\n`,
    );
    return EXIT.finished;
  }
  // Summaries come from logs, and imported logs from anywhere: no raw escapes.
  const rows = runs.map((s) =>
    [
      s.runId,
      statusOf(s),
      s.agent,
      s.model,
      stepsText(s),
      healthParts(s.health)
        .map((p) => p.text)
        .join(', ') || '-',
      new Date(s.startedAt).toISOString().replace('T', ' ').slice(0, 19),
      oneLine(s.title ?? s.task, 60),
    ].map(terminalSafe),
  );
  const header = ['RUN ID', 'STATUS', 'AGENT', 'MODEL', 'STEPS', 'HEALTH', 'STARTED (UTC)', 'TASK'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows]) {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)));
    process.stdout.write(`${cells.join('  ')}\n`);
  }
  return EXIT.finished;
}

function show(args: string[]): number {
  const { values, positionals } = parseCommandArgs('runs show', args, {
    jsonl: { type: 'boolean', default: false },
  });
  const ref = onlyRunId(positionals, 'runs show RUN_ID|PREFIX|last [--jsonl]');
  const store = openStore();
  let runId: string;
  try {
    runId = resolveRunRef(ref, store.list());
  } catch (error) {
    store.close();
    throw error;
  }
  const summary = store.summary(runId);
  const log = store.read(runId);
  store.close();
  if (!summary || !log) throw new UsageError(`no run with id ${runId} (see: workbench runs list)`);
  for (const warning of log.warnings) process.stderr.write(`workbench: ${warning}\n`);
  if (summary.historyIncomplete) {
    process.stderr.write(
      `workbench: this run's history is incomplete: ${terminalSafe(summary.historyIncomplete)}\n`,
    );
  }
  if (values.jsonl) {
    for (const line of log.lines) process.stdout.write(`${line}\n`);
    return EXIT.finished;
  }
  process.stdout.write(
    terminalSafe(
      `Run ${runId}: ${summary.agent} on ${summary.model || 'unknown model'}, ${statusOf(summary)}` +
        `${summary.isInterrupted ? ' (the app stopped before the run ended)' : ''}\nTask: ${summary.task}\n`,
    ),
  );
  const printer = new RunPrinter(
    (line) => process.stdout.write(`${line}\n`),
    (id, ref) => store.imagePath(id, ref),
  );
  for (const event of log.events) printer.onEvent(event);
  printer.end();
  return EXIT.finished;
}

async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs export', args, {
    output: { type: 'string', short: 'o' },
    otlp: { type: 'string' },
  });
  const ref = onlyRunId(positionals, 'runs export RUN_ID|PREFIX|last [-o FILE | --otlp URL]');
  if (values.otlp !== undefined && values.output !== undefined) {
    throw new UsageError('--otlp sends the run to a receiver; -o writes a file: give one of them');
  }
  if (values.otlp !== undefined && !/^https?:\/\/\S+$/.test(values.otlp)) {
    throw new UsageError(`--otlp must be an http:// or https:// URL, got "${values.otlp}"`);
  }
  const store = openStore();
  try {
    const runId = resolveRunRef(ref, store.list());
    if (values.otlp !== undefined) {
      // OpenTelemetry (docs/telemetry.md): loaded only by this command
      const { exportRunToOtlp } = await import('../../runtime/telemetry/export-run');
      const events = store.read(runId)?.events ?? [];
      try {
        const sent = await exportRunToOtlp(runId, events, values.otlp);
        process.stderr.write(
          `Exported run ${runId} as ${sent.spans} spans (trace ${sent.traceId}) to ${sent.url}\n`,
        );
      } catch (error) {
        process.stderr.write(`workbench: OTLP export failed: ${(error as Error).message}\n`);
        return EXIT.error;
      }
      return EXIT.finished;
    }
    const exported = exportRun(store, runId, new UserActionsLog(store.dir));
    if (values.output) {
      writeFileSync(values.output, exported.content);
      process.stderr.write(`Exported run ${runId} to ${values.output}\n`);
    } else {
      process.stdout.write(exported.content);
    }
    return EXIT.finished;
  } catch (error) {
    if (error instanceof RunTransferError) throw new UsageError(error.message);
    throw error;
  } finally {
    store.close();
  }
}

function importCommand(args: string[]): number {
  const { positionals } = parseCommandArgs('runs import', args, {});
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError('usage: workbench runs import FILE');
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const store = openStore();
  try {
    const result = importRun(store, content, file, undefined, new UserActionsLog(store.dir));
    // warnings come from the file (a title, image names): no raw escapes
    for (const warning of result.warnings) {
      process.stderr.write(`workbench: ${terminalSafe(warning)}\n`);
    }
    const { summary } = result;
    process.stdout.write(`${summary.runId}\n`);
    const title = summary.title === undefined ? '' : ` "${terminalSafe(summary.title)}"`;
    // The same run again is nothing to do, not an error: scripts may import a folder twice.
    process.stderr.write(
      result.isAlreadyPresent
        ? `Run ${summary.runId}${title} is already in the history with the same events: nothing imported\n`
        : `Imported run ${summary.runId}${title} (${statusOf(summary)})\n`,
    );
    return EXIT.finished;
  } catch (error) {
    if (error instanceof RunTransferError) throw new UsageError(error.message);
    throw error;
  } finally {
    store.close();
  }
}

function onlyRunId(positionals: string[], usage: string): string {
  const [runId, ...extra] = positionals;
  if (!runId || extra.length > 0) throw new UsageError(`usage: workbench ${usage}`);
  return runId;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
