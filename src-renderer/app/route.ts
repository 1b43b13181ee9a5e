/**
 * The window's address: which page, which run and which of its rows is shown, as a hash
 * (`#/run/RUN_ID/event/SEQ`). A hash works alike in `workbench serve` and in the desktop
 * window (a file URL), survives a reload, and changing it is no navigation the Electron
 * window has to allow. Row ids are event seqs, so a link stays valid across reloads.
 */
export type Route =
  | { page: 'new' }
  | { page: 'settings' }
  | { page: 'compare'; runIds: string[] }
  | { page: 'batch'; batchId?: string }
  | { page: 'playground'; runId: string; seq: number }
  | { page: 'agents'; name?: string }
  | { page: 'run'; runId: string; itemId?: number };

/** What the store shows, as a route (the parts of state the URL names). */
export interface RouteState {
  view: 'run' | 'new' | 'config' | 'compare' | 'batch' | 'playground' | 'agents';
  selectedRunId: string | null;
  /** the batch the Batch view shows (null: its form and list) */
  batchId: string | null;
  selectedItemId: number | null;
  compareRunIds: string[];
  /** the model call the playground shows (`#/playground/RUN/SEQ`) */
  playground?: { runId: string; seq: number } | null;
  /** the agent the Agents page's editor shows (null: the list) */
  agentName: string | null;
}

const RUN_ID = /^[A-Za-z0-9._-]{1,200}$/;
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function parseRoute(hash: string): Route | null {
  const parts = hash.replace(/^#\/?/, '').split('/').map(safeDecode);
  const [page, id, key, value] = parts;
  if (page === 'new') return { page: 'new' };
  if (page === 'settings') return { page: 'settings' };
  if (page === 'compare' && id) {
    const runIds = id.split(',').filter((r) => RUN_ID.test(r));
    return runIds.length >= 2 ? { page: 'compare', runIds } : null;
  }
  if (page === 'agents') {
    return id && AGENT_NAME.test(id) ? { page: 'agents', name: id } : { page: 'agents' };
  }
  if (page === 'batch') {
    return id && RUN_ID.test(id) && !/^\.+$/.test(id)
      ? { page: 'batch', batchId: id }
      : { page: 'batch' };
  }
  if (page === 'playground' && id && RUN_ID.test(id) && !/^\.+$/.test(id)) {
    const seq = Number(key);
    return Number.isInteger(seq) && seq > 0 ? { page: 'playground', runId: id, seq } : null;
  }
  if (page === 'run' && id && RUN_ID.test(id) && !/^\.+$/.test(id)) {
    const itemId = key === 'event' ? Number(value) : NaN;
    return Number.isInteger(itemId) && itemId > 0
      ? { page: 'run', runId: id, itemId }
      : { page: 'run', runId: id };
  }
  return null;
}

export function formatRoute(route: Route): string {
  switch (route.page) {
    case 'new':
      return '#/new';
    case 'settings':
      return '#/settings';
    case 'compare':
      return `#/compare/${route.runIds.map(encodeURIComponent).join(',')}`;
    case 'agents':
      return route.name ? `#/agents/${encodeURIComponent(route.name)}` : '#/agents';
    case 'batch':
      return route.batchId ? `#/batch/${encodeURIComponent(route.batchId)}` : '#/batch';
    case 'playground':
      return `#/playground/${encodeURIComponent(route.runId)}/${route.seq}`;
    case 'run': {
      const base = `#/run/${encodeURIComponent(route.runId)}`;
      return route.itemId !== undefined ? `${base}/event/${route.itemId}` : base;
    }
  }
}

export function routeOf(s: RouteState): Route {
  if (s.view === 'config') return { page: 'settings' };
  if (s.view === 'compare' && s.compareRunIds.length >= 2) {
    return { page: 'compare', runIds: s.compareRunIds };
  }
  if (s.view === 'playground' && s.playground) {
    return { page: 'playground', runId: s.playground.runId, seq: s.playground.seq };
  }
  if (s.view === 'agents')
    return s.agentName ? { page: 'agents', name: s.agentName } : { page: 'agents' };
  if (s.view === 'batch')
    return s.batchId ? { page: 'batch', batchId: s.batchId } : { page: 'batch' };
  if (s.view === 'run' && s.selectedRunId) {
    return s.selectedItemId !== null
      ? { page: 'run', runId: s.selectedRunId, itemId: s.selectedItemId }
      : { page: 'run', runId: s.selectedRunId };
  }
  return { page: 'new' };
}

/** Two routes on the same page (the same run): moving between them replaces the entry. */
export function isSamePage(a: Route, b: Route): boolean {
  if (a.page !== b.page) return false;
  if (a.page === 'run' && b.page === 'run') return a.runId === b.runId;
  if (a.page === 'compare' && b.page === 'compare') return a.runIds.join() === b.runIds.join();
  if (a.page === 'batch' && b.page === 'batch') return a.batchId === b.batchId;
  if (a.page === 'playground' && b.page === 'playground') {
    return a.runId === b.runId && a.seq === b.seq;
  }
  if (a.page === 'agents' && b.page === 'agents') return a.name === b.name;
  return true;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}
