/**
 * The Experiments page's part of the address: `#/experiments` (the list and the form),
 * `#/experiments/ID` (a report), `#/experiments/dataset/NAME` (a dataset's editor),
 * `#/experiments/trend/PATH` (a dataset's regression chart; the path encoded). Experiment
 * ids are `x-…`, so `dataset` and `trend` never name one.
 */
import type { ExperimentsPage } from '../../store/experiments-slice';

const ID = /^[A-Za-z0-9._-]{1,100}$/;

export function experimentsRouteOf(parts: string[]): ExperimentsPage {
  const [first, second] = parts;
  if (first === 'dataset' && second && ID.test(second)) return { kind: 'dataset', name: second };
  if (first === 'trend' && second) return { kind: 'trend', datasetPath: second };
  if (first && first !== 'dataset' && first !== 'trend' && ID.test(first) && !/^\.+$/.test(first))
    return { kind: 'report', experimentId: first };
  return { kind: 'list' };
}

export function formatExperimentsRoute(page: ExperimentsPage): string {
  switch (page.kind) {
    case 'list':
      return '#/experiments';
    case 'report':
      return `#/experiments/${encodeURIComponent(page.experimentId)}`;
    case 'dataset':
      return `#/experiments/dataset/${encodeURIComponent(page.name)}`;
    case 'trend':
      return `#/experiments/trend/${encodeURIComponent(page.datasetPath)}`;
  }
}
