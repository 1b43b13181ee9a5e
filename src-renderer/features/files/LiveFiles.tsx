/**
 * The running step's files, live (issue 32, docs/time-travel.md "The running step,
 * live"): the step under way has no checkpoint yet, so the panel shows the session's
 * workspace as it is now, listed again every second or two, marked against the run's last
 * checkpoint, with a clear "live" label and the time of the listing. A file opened here
 * is read again when the listing shows it changed.
 */
import { useState } from 'react';
import type { LiveWorkspaceView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';
import { FileTree } from './FileTree';
import { FileView } from './FileViewer';

export function LiveFiles({ runId, view }: { runId: string; view: LiveWorkspaceView }) {
  const bridge = useBridge();
  const [openPath, setOpenPath] = useState<string | null>(null);
  const open = openPath ? view.entries.find((e) => e.path === openPath) : undefined;
  const time = new Date(view.listedAt).toLocaleTimeString();
  return (
    <>
      <p
        className="files-live"
        data-testid={TEST_IDS.filesLive}
        data-listed-at={view.listedAt}
        data-since={view.since}
      >
        <span className="chip chip-live">live</span>{' '}
        {`The running step's files now (listed at ${time})`}
        {view.since > 0 ? `; marked against the checkpoint of step ${view.since}` : ''}
      </p>
      {view.note && (
        <p className="muted" data-testid={TEST_IDS.filesNote}>
          {view.note}
        </p>
      )}
      {view.truncatedAt !== undefined && (
        <p className="muted">{`Only the first ${view.truncatedAt} entries are listed.`}</p>
      )}
      {view.deleted.length > 0 && (
        <p className="muted">{`Deleted since then: ${view.deleted.join(', ')}`}</p>
      )}
      <FileTree entries={view.entries} openPath={openPath} onOpen={setOpenPath} />
      {openPath && (
        <FileView
          path={openPath}
          // read again when the listing shows it changed (or gone: then it says so)
          requestKey={`${runId}/live/${openPath}/${open ? `${open.size}:${open.mtimeMs}` : 'gone'}`}
          load={(download) => bridge.files.getLiveFile({ runId, path: openPath, download })}
        />
      )}
    </>
  );
}
