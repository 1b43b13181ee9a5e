/**
 * Which timeline items are rows, given the filters and the collapsed steps. With no
 * filter and nothing collapsed every item is a row and no list is built at all (the
 * common case while a long run streams in). A step header is kept when any of its
 * items is shown, so a filtered row still says which step it belongs to.
 */
import type { Role } from '@shared/domain/message';
import type { TimelineItem } from './types';

export interface TimelineFilters {
  /** roles to show; empty = all */
  roles: Role[];
  /** only tool calls of this tool (and the responses that called it) */
  tool: string | null;
  isErrorsOnly: boolean;
  isDuplicatesOnly: boolean;
  text: string;
}

export const NO_FILTERS: TimelineFilters = {
  roles: [],
  tool: null,
  isErrorsOnly: false,
  isDuplicatesOnly: false,
  text: '',
};

export function hasActiveFilters(f: TimelineFilters): boolean {
  return (
    f.roles.length > 0 ||
    f.tool !== null ||
    f.isErrorsOnly ||
    f.isDuplicatesOnly ||
    f.text.trim() !== ''
  );
}

/** Row positions, or null when every item is a row. */
export type VisibleRows = number[] | null;

export function computeVisibleRows(
  items: readonly TimelineItem[],
  filters: TimelineFilters,
  collapsed: ReadonlySet<number>,
): VisibleRows {
  const isFiltering = hasActiveFilters(filters);
  if (!isFiltering && collapsed.size === 0) return null;
  const rows: number[] = [];
  const needle = filters.text.trim().toLowerCase();
  let headerShownFor = -1;
  let headerPosition = -1;
  for (let position = 0; position < items.length; position++) {
    const item = items[position]!;
    // a folded plan step hides everything nested under it, its executors' steps too
    if (item.planStepId !== undefined && collapsed.has(item.planStepId)) continue;
    if (item.kind === 'step') {
      headerPosition = position;
      if (!isFiltering) {
        rows.push(position);
        headerShownFor = item.id;
      }
      continue;
    }
    if (item.stepId !== 0 && collapsed.has(item.stepId)) continue;
    if (isFiltering && !itemMatches(item, filters, needle)) continue;
    if (item.stepId !== 0 && headerShownFor !== item.stepId) {
      const header = items[headerPosition];
      if (header?.id === item.stepId) rows.push(headerPosition);
      headerShownFor = item.stepId;
    }
    rows.push(position);
  }
  return rows;
}

export function itemMatches(item: TimelineItem, f: TimelineFilters, needle: string): boolean {
  if (f.roles.length > 0) {
    const role = roleOf(item);
    if (role === null || !f.roles.includes(role)) return false;
  }
  if (f.tool !== null && !usesTool(item, f.tool)) return false;
  if (f.isErrorsOnly && !isError(item)) return false;
  if (f.isDuplicatesOnly && !isDuplicateRelated(item)) return false;
  if (needle !== '' && !searchText(item).includes(needle)) return false;
  return true;
}

export function roleOf(item: TimelineItem): Role | null {
  if (item.kind === 'message') return item.role;
  if (item.kind === 'stream') return 'assistant';
  if (item.kind === 'tool') return 'tool';
  return null;
}

function usesTool(item: TimelineItem, tool: string): boolean {
  if (item.kind === 'tool') return item.name === tool;
  if (item.kind === 'message')
    return item.toolCalls?.some((c) => c.function.name === tool) ?? false;
  return false;
}

export function isError(item: TimelineItem): boolean {
  switch (item.kind) {
    case 'tool':
      return item.status === 'error';
    case 'marker':
      return item.tone !== 'info';
    case 'finished':
      return item.outcome === 'error';
    case 'score':
      return item.error !== undefined;
    case 'step':
      return item.hasError;
    default:
      return false;
  }
}

/** Duplicates, the responses they repeat, and the stuck markers. */
export function isDuplicateRelated(item: TimelineItem): boolean {
  if (item.kind === 'message') return item.duplicate !== undefined || item.repeatedLater > 0;
  return item.kind === 'stuck';
}

const textCache = new WeakMap<TimelineItem, string>();

/** Lower-cased searchable text of an item; cached per item object (items are immutable). */
export function searchText(item: TimelineItem): string {
  let text = textCache.get(item);
  if (text !== undefined) return text;
  text = rawText(item).toLowerCase();
  textCache.set(item, text);
  return text;
}

function rawText(item: TimelineItem): string {
  switch (item.kind) {
    case 'run':
      return `${item.task} ${item.model}`;
    case 'step':
      return `step ${item.step} ${item.agent}`;
    case 'message':
      return [
        item.content ?? '',
        ...(item.toolCalls ?? []).map((c) => `${c.function.name} ${c.function.arguments}`),
        item.name ?? '',
      ].join(' ');
    case 'stream':
      return item.text;
    case 'tool':
      return [
        item.name,
        typeof item.args === 'string' ? item.args : JSON.stringify(item.args),
        item.output ?? '',
        item.error ?? '',
      ].join(' ');
    case 'marker':
      return item.text;
    case 'stuck':
      return `stuck ${item.stuckKind} repeated ${item.count}`;
    case 'human':
      return `${item.question} ${item.answer ?? ''}`;
    case 'finished':
      return `${item.outcome} ${item.error ?? ''} ${item.terminateStatus ?? ''}`;
    case 'debug':
      return item.text;
    case 'score':
      return `score ${item.scorer} ${item.scorerKind} ${item.explanation} ${item.error ?? ''}`;
    case 'user':
      return `user command ${item.command.command} ${item.command.output}`;
  }
}
