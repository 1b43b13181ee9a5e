/**
 * Keeps the address and the store in step: a run or row chosen in the window shows in
 * the URL (a new run or page adds a history entry, moving between rows of one run
 * replaces it, so Back goes to the previous run, not to the previous row); a URL opened,
 * reloaded or reached with Back/Forward shows what it names. A row named by the URL is
 * selected once the run's events that contain it have arrived.
 */
import { useEffect } from 'react';
import { positionOfId } from '../store/timeline/model';
import type { WorkbenchStore } from '../store/store';
import { formatRoute, isSamePage, parseRoute, routeOf, type Route } from './route';

export function useUrlSync(store: WorkbenchStore, win: Window = window): void {
  useEffect(() => {
    /** a row the URL names that the timeline does not hold yet */
    let pending: { runId: string; itemId: number } | null = null;

    const settlePending = () => {
      if (!pending) return;
      const s = store.getState();
      if (s.selectedRunId !== pending.runId || s.view !== 'run') {
        pending = null;
        return;
      }
      const run = s.runs[pending.runId];
      if (run && positionOfId(run.timeline.items, pending.itemId) >= 0) {
        const { itemId } = pending;
        pending = null;
        s.jumpTo(itemId);
      } else if (run?.load.status === 'loaded' || run?.load.status === 'error') {
        // the run has no such row (a stale link): show the run without one
        pending = null;
      }
    };

    const show = (route: Route) => {
      const s = store.getState();
      switch (route.page) {
        case 'new':
          if (s.view !== 'new') s.showView('new');
          return;
        case 'settings':
          if (s.view !== 'config') s.showView('config');
          return;
        case 'compare':
          s.openCompare(route.runIds);
          return;
        case 'agents':
          if (s.view !== 'agents' || s.agentName !== (route.name ?? null))
            s.showAgents(route.name ?? null);
          return;
        case 'batch':
          if (s.view !== 'batch' || s.batchId !== (route.batchId ?? null))
            s.showBatch(route.batchId ?? null);
          return;
        case 'playground':
          if (
            s.view !== 'playground' ||
            s.playground?.runId !== route.runId ||
            s.playground.seq !== route.seq
          )
            s.openPlayground(route.runId, route.seq);
          return;
        case 'run':
          if (s.selectedRunId !== route.runId) s.selectRun(route.runId);
          else if (s.view !== 'run') s.showView('run');
          if (route.itemId !== undefined) {
            pending = { runId: route.runId, itemId: route.itemId };
            settlePending();
          } else if (store.getState().selectedItemId !== null) {
            store.getState().selectItem(null);
          }
      }
    };

    const initial = parseRoute(win.location.hash);
    if (initial) show(initial);

    const stop = store.subscribe((s, previous) => {
      settlePending();
      // until the named row is selected, the URL keeps naming it
      if (pending) return;
      const next = routeOf(s);
      const hash = formatRoute(next);
      if (hash === win.location.hash) return;
      const before = parseRoute(win.location.hash) ?? routeOf(previous);
      if (isSamePage(before, next)) win.history.replaceState(null, '', hash);
      else win.history.pushState(null, '', hash);
    });
    const onPop = () => show(parseRoute(win.location.hash) ?? { page: 'new' });
    win.addEventListener('popstate', onPop);
    return () => {
      stop();
      win.removeEventListener('popstate', onPop);
    };
  }, [store, win]);
}
