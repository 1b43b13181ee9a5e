/**
 * A JSON value as a collapsible tree: objects and arrays open to their first levels,
 * deeper ones folded; scalars typed by colour. For structured data the user reads
 * (an MCP tool's `structuredContent`), not for editing.
 */
import { useState } from 'react';
import { TEST_IDS } from '../test-ids';

/** levels open at first */
const OPEN_DEPTH = 2;
/** children shown per object or array before "… N more" */
const MAX_CHILDREN = 200;

function isBranch(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function JsonTree({ value }: { value: unknown }) {
  return (
    <ul className="json-tree" role="tree">
      <JsonNode name={null} value={value} path="" depth={0} />
    </ul>
  );
}

function JsonNode({
  name,
  value,
  path,
  depth,
}: {
  name: string | null;
  value: unknown;
  path: string;
  depth: number;
}) {
  const [isOpen, setOpen] = useState(depth < OPEN_DEPTH);
  const label = name === null ? null : <span className="json-key">{name}: </span>;
  if (!isBranch(value)) {
    return (
      <li
        role="treeitem"
        data-testid={TEST_IDS.jsonNode}
        data-path={path}
        className={`json-${value === null ? 'null' : typeof value}`}
      >
        {label}
        <span className="json-value">{scalar(value)}</span>
      </li>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <li role="treeitem" aria-expanded={isOpen} data-testid={TEST_IDS.jsonNode} data-path={path}>
      <button
        type="button"
        className="json-toggle"
        aria-label={isOpen ? 'Fold' : 'Unfold'}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!isOpen);
        }}
      >
        {isOpen ? '▾' : '▸'}
      </button>
      {label}
      <span className="muted">{summary}</span>
      {isOpen && (
        <ul className="json-tree" role="group">
          {entries.slice(0, MAX_CHILDREN).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} path={`${path}/${k}`} depth={depth + 1} />
          ))}
          {entries.length > MAX_CHILDREN && (
            <li className="muted">… {entries.length - MAX_CHILDREN} more</li>
          )}
        </ul>
      )}
    </li>
  );
}
