import { describe, expect, it } from 'vitest';
import { digestRun } from '@shared/compare/diff-runs';
import { history, plainStep } from '@shared/compare/testing/history';
import { StepPages } from './step-pages';

const steps = digestRun({
  events: history(
    'run-a',
    Array.from({ length: 20 }, (_, i) => plainStep(i + 1)),
  ),
}).steps;

function pagesOf(pageSize: number) {
  const asked: [string, number, number][] = [];
  const pages = new StepPages(async (runId, from, to) => {
    asked.push([runId, from, to]);
    if (runId !== 'run-a') throw new Error(`No run with id ${runId}`);
    return steps.slice(from, to);
  }, pageSize);
  let changes = 0;
  pages.subscribe(() => changes++);
  return { pages, asked, changes: () => changes };
}

describe('step pages', () => {
  it('ask for the page of a step in view once, and give its steps when it is here', async () => {
    const { pages, asked, changes } = pagesOf(8);
    expect(pages.get('run-a', 9)).toBeUndefined();
    expect(pages.get('run-a', 10)).toBeUndefined();
    expect(asked).toEqual([['run-a', 8, 16]]);
    await Promise.resolve();
    await Promise.resolve();
    expect(changes()).toBe(1);
    expect(pages.get('run-a', 10)).toEqual(steps[10]);
    expect(pages.get('run-a', 15)).toEqual(steps[15]);
    // nothing else was read: not the steps before, not the steps after
    expect(asked).toEqual([['run-a', 8, 16]]);
  });

  it('say why a run’s steps could not be read, and ask no more', async () => {
    const { pages, asked } = pagesOf(8);
    pages.get('zz', 0);
    await Promise.resolve();
    await Promise.resolve();
    expect(pages.failure('zz')).toBe('No run with id zz');
    pages.get('zz', 0);
    expect(asked).toHaveLength(1);
  });
});
