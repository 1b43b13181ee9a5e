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

/** On a step row of a finished run whose step has a checkpoint. */
export function StepFilesChip({ runId, step }: { runId: string; step: number }) {
  const bridge = useBridge();
  const open = useFilesView((s) => s.open);
  const isEnded = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && runStatus(summary) !== 'running';
  });
  const checkpoints = useFilesView((s) => s.checkpoints[runId]);
  const load = useFilesView((s) => s.loadCheckpoints);
  useEffect(() => {
    if (isEnded) load(runId, () => bridge.listCheckpoints(runId));
  }, [isEnded, load, runId, bridge]);
  if (checkpoints === undefined || checkpoints === 'loading' || !checkpoints.has(step)) return null;
  return (
    <button
      type="button"
      className="chip chip-files"
      data-testid={TEST_IDS.stepFilesChip}
      title="What this step changed in the workspace"
      onClick={(e) => {
        e.stopPropagation();
        open(runId, { step, mode: 'diff' });
      }}
    >
      files changed
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
