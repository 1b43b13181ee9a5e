/**
 * One file as it was at a step (or as it is now, for the running step: LiveFiles.tsx):
 * text highlighted by its name's language, an image, or "binary, N bytes" with a
 * download (its bytes are asked for only then).
 */
import { useState } from 'react';
import type { LiveFileView, WorkspaceFileView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';
import { CodeBlock } from '../../components/content/CodeBlock';
import { languageOfPath } from '../../components/content/highlight';
import { formatBytes } from './format-bytes';
import { useRequest } from './use-request';

export function FileViewer({ runId, step, path }: { runId: string; step: number; path: string }) {
  const bridge = useBridge();
  return (
    <FileView
      path={path}
      requestKey={`${runId}/${step}/${path}`}
      load={(download) => bridge.files.getRunFile({ runId, step, path, download })}
    />
  );
}

/** A file read by `load` (again whenever `requestKey` changes); `load(true)` is the download. */
export function FileView({
  path,
  requestKey,
  load,
}: {
  path: string;
  requestKey: string;
  load: (download: boolean) => Promise<WorkspaceFileView | LiveFileView>;
}) {
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const file = useRequest(requestKey, () => load(false));
  if (file.status === 'loading') return <p className="muted">Loading {path}…</p>;
  if (file.status === 'failed') {
    return (
      <p className="error-note" role="alert">
        {file.error}
      </p>
    );
  }
  const view = file.value;
  const download = async () => {
    setDownloadError(null);
    try {
      const full = await load(true);
      const bytes = Uint8Array.from(atob(full.data ?? ''), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = path.split('/').at(-1) ?? 'file';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setDownloadError(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div
      className="files-viewer"
      data-testid={TEST_IDS.filesViewer}
      data-path={path}
      data-kind={view.kind}
    >
      <div className="files-viewer-head">
        <span className="mono">{path}</span>
        <span className="muted">{formatBytes(view.size)}</span>
        <button
          type="button"
          className="link"
          data-testid={TEST_IDS.filesDownload}
          onClick={() => void download()}
        >
          Download
        </button>
      </div>
      {downloadError && (
        <p className="error-note" role="alert">
          {downloadError}
        </p>
      )}
      {'linkTarget' in view && view.linkTarget !== undefined && (
        <p className="muted">{`A symbolic link to ${view.linkTarget}: shown as its text, never followed.`}</p>
      )}
      {view.kind === 'text' && (
        <>
          <CodeBlock
            code={view.text ?? ''}
            language={languageOfPath(path)}
            hasLineNumbers
            isWrapped={false}
          />
          {view.truncatedAt !== undefined && (
            <p className="muted">Shown up to {view.truncatedAt} characters: download it for all.</p>
          )}
        </>
      )}
      {view.kind === 'image' && view.data && (
        <img
          className="files-image"
          alt={path}
          src={`data:${view.mimeType ?? 'image/png'};base64,${view.data}`}
        />
      )}
      {view.kind === 'binary' && <p className="muted">{`binary, ${view.size} bytes`}</p>}
    </div>
  );
}
