import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  // the app writes the run it shows into the URL; the next test starts from a blank one
  window.history.replaceState(null, '', window.location.pathname);
});

// happy-dom does no layout: every box is 0×0, so a virtualized list would render no
// rows. Give the timeline's scroll container a window-sized box and each row a nominal
// height (the virtualizer reads clientWidth/clientHeight and offsetHeight). The compare
// view's list of aligned rows is virtualized the same way.
function layoutSize(el: HTMLElement, axis: 'width' | 'height'): number {
  if (el.classList.contains('timeline') || el.classList.contains('cmp-list')) {
    return axis === 'width' ? 1000 : 2000;
  }
  if (el.classList.contains('vrow')) return axis === 'width' ? 1000 : 40;
  return 0;
}
for (const [prop, axis] of [
  ['clientWidth', 'width'],
  ['clientHeight', 'height'],
  ['offsetWidth', 'width'],
  ['offsetHeight', 'height'],
] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      return layoutSize(this, axis);
    },
  });
}
