/**
 * What a step did to the workspace (issue 32): each file added, changed or deleted, a
 * line diff for text, the size for binary files, and the tool call that wrote it (exact
 * for an editor call, "in this step" for a shell). Opened from a tool card, the files
 * that call wrote come first and are marked.
 */
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';
import type { FileChangeView } from '@shared/ipc';
import { formatBytes } from './format-bytes';
import { useRequest } from './use-request';

export function StepDiff({
  runId,
  step,
  toolCallId,
}: {
  runId: string;
  step: number;
  toolCallId: string | null;
}) {
  const bridge = useBridge();
  const changes = useRequest(`${runId}/${step}`, () =>
    bridge.files.getRunChanges({ runId, to: step }),
  );
  if (changes.status === 'loading') return <p className="muted">Loading the changes…</p>;
  if (changes.status === 'failed') {
    return (
      <p className="error-note" role="alert">
        {changes.error}
      </p>
    );
  }
  const view = changes.value;
  const byCall = (f: FileChangeView) =>
    toolCallId !== null && f.attribution?.some((a) => a.toolCallId === toolCallId) ? 0 : 1;
  const files = [...view.files].sort((a, b) => byCall(a) - byCall(b));
  return (
    <div className="step-diff" data-testid={TEST_IDS.stepDiff} data-step={step}>
      <p className="muted">
        {view.to !== step
          ? `Step ${step} has no checkpoint of its own.`
          : view.files.length === 0
            ? `Step ${step} changed no files.`
            : `Step ${step} (against ${view.from === 0 ? 'where the run started' : `step ${view.from}`}): ${view.files.length} file${view.files.length === 1 ? '' : 's'}`}
      </p>
      {files.map((file) => (
        <div
          key={file.path}
          className={`step-diff-file change-${file.change}${byCall(file) === 0 ? ' is-focused' : ''}`}
          data-testid={TEST_IDS.stepDiffFile}
          data-path={file.path}
          data-change={file.change}
        >
          <div className="step-diff-head">
            <span className={`chip chip-${file.change}`}>{file.change}</span>
            <span className="mono">{file.path}</span>
            {file.hunks && <span className="muted">{`+${file.added} −${file.removed}`}</span>}
            {file.isBinary && (
              <span className="muted">{`binary, ${formatBytes(file.sizeBefore)} → ${formatBytes(file.sizeAfter)}`}</span>
            )}
            {file.note && <span className="muted">{file.note}</span>}
            {file.attribution?.map((a, i) => (
              <span
                key={i}
                className="muted"
                title={
                  a.certainty === 'exact'
                    ? 'This call names the file'
                    : 'A call of this step that can write files'
                }
              >
                {a.tool
                  ? `${a.certainty === 'exact' ? 'by' : 'in this step:'} ${a.tool}`
                  : 'in this step'}
              </span>
            ))}
          </div>
          {file.hunks && file.hunks.length > 0 && (
            <pre className="diff-hunks mono">
              {file.hunks.map((h, i) => (
                <span key={i}>
                  <span className="diff-hunk-head">{`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`}</span>
                  {h.lines.map((line, j) => (
                    <span
                      key={j}
                      className={
                        line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : ''
                      }
                    >{`${line}\n`}</span>
                  ))}
                </span>
              ))}
            </pre>
          )}
        </div>
      ))}
    </div>
  );
}
