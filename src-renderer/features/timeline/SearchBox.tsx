/**
 * The timeline's search: every match is highlighted in the rows (use-search-highlight),
 * counted ("3 of 12 rows · 15 matches"), and stepped through with Enter / Shift+Enter or
 * the arrows; "only matches" also hides the rows without one.
 */
import { useDeferredValue, useMemo } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { findMatches, matchPlace, stepMatch } from '../../store/timeline/find';
import type { TimelineItem } from '../../store/timeline/types';

const EMPTY: readonly TimelineItem[] = [];

export function SearchBox({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const search = useWorkbench((s) => s.search);
  const isFiltering = useWorkbench((s) => s.isSearchFiltering);
  const items = useWorkbench((s) => s.runs[runId]?.timeline.items ?? EMPTY);
  const selectedItemId = useWorkbench((s) => s.selectedItemId);
  // typing stays quick on a 100,000-row run: the count follows a moment later
  const query = useDeferredValue(search);
  const matches = useMemo(() => findMatches(items, query), [items, query]);
  const place = matchPlace(matches.ids, selectedItemId);
  const hasQuery = search.trim() !== '';

  const go = (direction: 1 | -1) => {
    const target = stepMatch(matches.ids, store.getState().selectedItemId, direction);
    if (target !== null) store.getState().jumpTo(target);
  };

  return (
    <div className="search-box" role="search">
      <input
        type="search"
        className="search"
        data-testid={TEST_IDS.filterSearch}
        placeholder="Search (/)"
        aria-label="Search the timeline"
        value={search}
        onChange={(e) => store.getState().setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            go(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.currentTarget.blur();
            document.querySelector<HTMLElement>(`[data-testid="${TEST_IDS.timeline}"]`)?.focus();
          }
        }}
      />
      {hasQuery && (
        <>
          <span
            className="search-count muted"
            data-testid={TEST_IDS.searchCount}
            data-rows={matches.ids.length}
            data-matches={matches.occurrences}
            data-place={place}
            aria-live="polite"
          >
            {matches.ids.length === 0
              ? 'no match'
              : `${place > 0 ? `${place} of ` : ''}${matches.ids.length} row${matches.ids.length === 1 ? '' : 's'} · ${matches.occurrences} match${matches.occurrences === 1 ? '' : 'es'}`}
          </span>
          <button
            type="button"
            className="icon-button"
            title="Previous match (Shift+Enter)"
            aria-label="Previous match"
            data-testid={TEST_IDS.searchPrev}
            disabled={matches.ids.length === 0}
            onClick={() => go(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button"
            title="Next match (Enter)"
            aria-label="Next match"
            data-testid={TEST_IDS.searchNext}
            disabled={matches.ids.length === 0}
            onClick={() => go(1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="toggle"
            aria-pressed={isFiltering}
            data-testid={TEST_IDS.searchOnly}
            title="Hide the rows without a match"
            onClick={() => store.getState().setSearchFiltering(!isFiltering)}
          >
            only matches
          </button>
        </>
      )}
    </div>
  );
}
