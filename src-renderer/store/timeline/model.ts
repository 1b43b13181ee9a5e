/** A run's empty timeline, and the id lookup every view uses. */
import type { TimelineItem, TimelineModel } from './types';
import { createWaitState } from './step-waits';

let lastVersion = 0;

/** A version no other model of this page has (models of all runs share the counter). */
export function nextVersion(): number {
  return ++lastVersion;
}

export function createTimeline(): TimelineModel {
  return {
    version: nextVersion(),
    items: [],
    index: {
      memory: new Map(),
      tools: new Map(),
      steps: new Map(),
      contentSeen: new Map(),
      signatureSeen: new Map(),
      human: new Map(),
      toolNames: new Set(),
      errors: new Map(),
      prompts: new Map(),
      mcpLogs: [],
    },
    runAgent: '',
    toolErrors: 0,
    current: {},
    lastAgent: '',
    streams: {},
    pendingResponse: {},
    pendingCalls: {},
    pendingNudge: {},
    waitState: createWaitState(),
    systemPrompts: {},
    requestTools: {},
    openQuestions: [],
    mcpLogCount: 0,
    pendingSampling: {},
    eventCount: 0,
    lastSeq: 0,
  };
}

/** Position of the item with this id (ids ascend with position), or -1. */
export function positionOfId(items: readonly TimelineItem[], id: number): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const midId = items[mid]!.id;
    if (midId === id) return mid;
    if (midId < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
