/**
 * Ways into the Files panel from the timeline (issue 32): the "files" chip on a step row
 * (the step's diff) and "changed files" on a tool card (the diff, that call's files first).
 */
import { useEffect } from 'react';
import { TEST_IDS } from '../../../test-ids';
import { useBridge, useWorkbench } from '../../../store/StoreProvider';
import { runStatus } from '../../../store/run-events';
import { useFilesView } from '../../../store/files-view';

/** Tools that write files: their cards link to the step's diff. */
const WRITERS = new Set(['bash', 'python_execute', 'str_replace_editor']);

/**
 * On a finished step row whose step added, changed or deleted files: how many, and a way
 * to the step's diff. A step whose checkpoint found no change has no chip. While the run
 * runs, each new step row asks again (its checkpoint is taken right after it).
 */
export function StepFilesChip({ runId, step }: { runId: string; step: number }) {
  const bridge = useBridge();
  const open = useFilesView((s) => s.open);
  const isEnded = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && runStatus(summary) !== 'running';
  });
  const count = useFilesView((s) => s.changeCounts[runId]?.byStep.get(step));
  const load = useFilesView((s) => s.loadChangeCounts);
  useEffect(() => {
    load(runId, step, isEnded, () => bridge.files.getStepChangeCounts({ runId }));
  }, [isEnded, load, runId, step, bridge]);
  const total = count ? count.added + count.changed + count.deleted : 0;
  if (total === 0) return null;
  const parts = [
    count!.added ? `${count!.added} added` : '',
    count!.changed ? `${count!.changed} changed` : '',
    count!.deleted ? `${count!.deleted} deleted` : '',
  ].filter(Boolean);
  return (
    <button
      type="button"
      className="chip chip-files"
      data-testid={TEST_IDS.stepFilesChip}
      data-count={total}
      title={`What this step changed in the workspace: ${parts.join(', ')}`}
      onClick={(e) => {
        e.stopPropagation();
        open(runId, { step, mode: 'diff' });
      }}
    >
      {total === 1 ? '1 file changed' : `${total} files changed`}
    </button>
  );
}

export function ToolDiffLink({
  runId,
  step,
  tool,
  toolCallId,
}: {
  runId: string;
  step: number;
  tool: string;
  toolCallId: string;
}) {
  const open = useFilesView((s) => s.open);
  if (!WRITERS.has(tool)) return null;
  return (
    <button
      type="button"
      className="link"
      data-testid={TEST_IDS.toolDiffLink}
      title="The files this step changed, this call's first"
      onClick={(e) => {
        e.stopPropagation();
        open(runId, { step, mode: 'diff', toolCallId });
      }}
    >
      changed files
    </button>
  );
}
