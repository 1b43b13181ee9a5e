/**
 * The workspace's entries as a tree that opens one folder at a time (a 5,000-file
 * workspace renders only what is open), with sizes and what changed: a step's checkpoint
 * or the running step's live listing (LiveFiles.tsx).
 */
import { useMemo, useState } from 'react';
import type { WorkspaceEntryView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { formatBytes } from './format-bytes';

export function FileTree({
  entries,
  openPath,
  onOpen,
}: {
  entries: WorkspaceEntryView[];
  openPath: string | null;
  onOpen: (path: string) => void;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // changed files inside a folder mark the folder too
  const changedFolders = useMemo(() => {
    const out = new Set<string>();
    for (const e of entries) {
      if (!e.change) continue;
      const parts = e.path.split('/');
      for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
    }
    return out;
  }, [entries]);
  const shown = entries.filter((e) => {
    const parent = e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : '';
    if (parent === '') return true;
    const parts = parent.split('/');
    return parts.every((_, i) => expanded.has(parts.slice(0, i + 1).join('/')));
  });
  if (entries.length === 0) return <p className="muted">The workspace is empty.</p>;
  return (
    <ul className="files-tree" role="tree">
      {shown.map((e) => {
        const depth = e.path.split('/').length - 1;
        const name = e.path.slice(e.path.lastIndexOf('/') + 1);
        const isFolder = e.kind === 'folder';
        const isExpanded = expanded.has(e.path);
        return (
          <li
            key={e.path}
            role="treeitem"
            aria-selected={openPath === e.path}
            aria-expanded={isFolder ? isExpanded : undefined}
            className={`files-entry${e.change ? ` change-${e.change}` : ''}${changedFolders.has(e.path) ? ' has-changes' : ''}`}
            data-testid={TEST_IDS.filesEntry}
            data-path={e.path}
            data-kind={e.kind}
            data-change={e.change}
            style={{ paddingLeft: `${depth * 14 + 4}px` }}
          >
            <button
              type="button"
              className="link"
              onClick={() => {
                if (!isFolder) return onOpen(e.path);
                const next = new Set(expanded);
                if (isExpanded) next.delete(e.path);
                else next.add(e.path);
                setExpanded(next);
              }}
            >
              {isFolder ? `${isExpanded ? '▾' : '▸'} ${name}/` : name}
            </button>
            {!isFolder && <span className="muted">{formatBytes(e.size)}</span>}
            {e.change && <span className={`chip chip-${e.change}`}>{e.change}</span>}
            {e.skipped && (
              <span className="muted" title={e.skipped}>
                not in the snapshots
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
