/**
 * The "Workspaces" section of `workbench runs diff A B` (issue 32 item 5): which files
 * differ between the two runs' workspaces at the end (each run's last checkpoint), and
 * the first aligned pair of steps where they part. Read from the checkpoints
 * (timetravel/workspace-compare.ts); an exported run file has none.
 */
import { alignedStepPairs } from '@shared/compare/aligned-steps';
import { rowLabel } from '@shared/compare/diff-runs';
import type { RunDiff } from '@shared/compare/types';
import type { WorkspaceDifference, WorkspacesDiffView } from '@shared/domain/files';
import type { WorkspaceComparer } from '../runtime/timetravel/workspace-compare';

export interface WorkspacesReport {
  /** why the workspaces were not compared (an exported file, no checkpoints) */
  unavailable?: string;
  end?: WorkspacesDiffView;
  /** the first aligned pair of steps whose workspaces differ (null: none does) */
  firstDivergence?: {
    row: number;
    label: string;
    stepA: number;
    stepB: number;
    files: WorkspaceDifference[];
    truncatedAt?: number;
  } | null;
}

/** Files listed per part of the text report before "… N more". */
const FILES_SHOWN = 30;

export function compareWorkspaces(
  comparer: WorkspaceComparer,
  diff: RunDiff,
  runIds: readonly [string | undefined, string | undefined],
): WorkspacesReport {
  const [a, b] = runIds;
  if (a === undefined || b === undefined) {
    const which = a === undefined ? 'A' : 'B';
    return { unavailable: `${which} is an exported run file: its workspace is not recorded` };
  }
  const end = comparer.diff({ runId: a }, { runId: b });
  if (end.unavailable !== undefined) return { unavailable: end.unavailable };
  const first = comparer.firstDivergence(a, b, alignedStepPairs(diff));
  return {
    end,
    firstDivergence: first
      ? {
          row: first.row,
          label: rowLabel(diff, diff.rows[first.row]!),
          stepA: first.stepA,
          stepB: first.stepB,
          files: first.diff.files,
          ...(first.diff.truncatedAt !== undefined ? { truncatedAt: first.diff.truncatedAt } : {}),
        }
      : null,
  };
}

const MARK: Record<WorkspaceDifference['difference'], string> = {
  added: '+',
  missing: '-',
  changed: '~',
};

function fileLines(files: readonly WorkspaceDifference[], truncatedAt?: number): string[] {
  const out = files.slice(0, FILES_SHOWN).map((f) => {
    const folder = f.kind === 'folder' ? '/' : '';
    const what =
      f.difference === 'added'
        ? 'only in B'
        : f.difference === 'missing'
          ? 'missing in B'
          : f.sizeA !== f.sizeB
            ? `${f.sizeA ?? 0} → ${f.sizeB ?? 0} bytes`
            : 'other content';
    return `  ${MARK[f.difference]} ${f.path}${folder}  (${what})`;
  });
  const more = files.length - FILES_SHOWN;
  if (more > 0) out.push(`  … ${more} more (see --json)`);
  if (truncatedAt !== undefined) out.push(`  (the first ${truncatedAt} listed; more differ)`);
  return out;
}

export function workspacesLines(report: WorkspacesReport): string[] {
  const out = ['', 'Workspaces:'];
  if (report.unavailable !== undefined || !report.end) {
    out.push(`  not compared: ${report.unavailable ?? 'no checkpoints'}`);
    return out;
  }
  const { end } = report;
  const at = `A step ${end.a.asOf}, B step ${end.b.asOf}`;
  if (end.files.length === 0) {
    out.push(`  the same at the end (${at})`);
  } else {
    const n = end.truncatedAt !== undefined ? `over ${end.truncatedAt}` : String(end.files.length);
    out.push(
      `  ${n} ${end.files.length === 1 ? 'file differs' : 'files differ'} at the end (${at}):`,
    );
    out.push(...fileLines(end.files, end.truncatedAt));
  }
  const first = report.firstDivergence;
  if (first) {
    out.push(
      `  first diverge at ${first.label} (A step ${first.stepA}, B step ${first.stepB}):`,
      ...fileLines(first.files, first.truncatedAt),
    );
  } else {
    out.push('  the same at every aligned step');
  }
  return out;
}
