import { useMemo } from 'react';
import { ROLES } from '@shared/domain/message';
import { filterRoleId, TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { hasActiveFilters } from '../../store/timeline/visible-rows';
import { SearchBox } from './SearchBox';

const KEYS_HELP =
  'j/k or ↑/↓ move · Home/End first/last · ] / [ next/previous step · e/E error · ' +
  'd/D duplicate · s/S stuck marker · Enter expand · / search (Enter/Shift+Enter: next/previous match) · ' +
  'p pause/resume · Shift+X stop · Esc deselect';

/** Search, filters (role, tool, errors, duplicates) and the follow-tail switch. */
export function TimelineToolbar({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const filters = useWorkbench((s) => s.filters);
  const items = useWorkbench((s) => s.runs[runId]?.timeline.items);
  const index = useWorkbench((s) => s.runs[runId]?.timeline.index);
  const isFollowing = useWorkbench((s) => s.isFollowingTail);
  const isLive = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && summary.outcome === undefined && !summary.isInterrupted;
  });
  // the tool-name set only grows; re-read it when the items change
  const toolNames = useMemo(() => [...(index?.toolNames ?? [])].sort(), [index, items]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = store.getState().setFilters;
  const isActive = hasActiveFilters(filters);

  return (
    <div className="toolbar" role="toolbar" aria-label="Timeline filters">
      <SearchBox runId={runId} />
      <div className="segmented" role="group" aria-label="Roles">
        {ROLES.map((role) => {
          const isOn = filters.roles.includes(role);
          return (
            <button
              key={role}
              type="button"
              className={`toggle role-${role}`}
              aria-pressed={isOn}
              data-testid={filterRoleId(role)}
              onClick={() =>
                set({
                  roles: isOn ? filters.roles.filter((r) => r !== role) : [...filters.roles, role],
                })
              }
            >
              {role}
            </button>
          );
        })}
      </div>
      <select
        data-testid={TEST_IDS.filterTool}
        aria-label="Tool"
        value={filters.tool ?? ''}
        onChange={(e) => set({ tool: e.target.value === '' ? null : e.target.value })}
      >
        <option value="">all tools</option>
        {toolNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="toggle"
        aria-pressed={filters.isErrorsOnly}
        data-testid={TEST_IDS.filterErrors}
        onClick={() => set({ isErrorsOnly: !filters.isErrorsOnly })}
      >
        errors
      </button>
      <button
        type="button"
        className="toggle"
        aria-pressed={filters.isDuplicatesOnly}
        data-testid={TEST_IDS.filterDuplicates}
        onClick={() => set({ isDuplicatesOnly: !filters.isDuplicatesOnly })}
      >
        duplicates
      </button>
      {isActive && (
        <button
          type="button"
          className="link"
          data-testid={TEST_IDS.filterClear}
          onClick={() => store.getState().clearFilters()}
        >
          clear
        </button>
      )}
      <span className="spacer" />
      <span
        className="muted keys-hint"
        data-testid={TEST_IDS.timelineKeys}
        title={KEYS_HELP}
        aria-label={KEYS_HELP}
      >
        keys
      </span>
      {isLive && (
        <button
          type="button"
          className="toggle"
          aria-pressed={isFollowing}
          data-testid={TEST_IDS.followTail}
          title="Keep the newest row in view (scrolling up turns it off)"
          onClick={() => store.getState().setFollowingTail(!isFollowing)}
        >
          {isFollowing ? 'following' : 'follow'}
        </button>
      )}
    </div>
  );
}
