/**
 * The steps' contents of a comparison, read a page at a time (`runs:steps`) for the rows
 * in view: the comparison itself names each step by number only, so two 10,000-step runs
 * open without sending every reply and tool output of both (issue 27).
 */
import type { StepDigest } from '@shared/compare/types';

export type LoadSteps = (runId: string, from: number, to: number) => Promise<StepDigest[]>;

/** Steps per request: a screenful of rows and the rows around it. */
export const STEP_PAGE = 64;

export class StepPages {
  /** runId -> page number -> its steps, or the request on its way */
  private readonly pages = new Map<string, Map<number, StepDigest[] | Promise<void>>>();
  private readonly failures = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly load: LoadSteps,
    private readonly pageSize = STEP_PAGE,
  ) {}

  /** Called when a page arrived (or failed): the rows render again. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** The step's digest when its page is here; asks for the page otherwise. */
  get(runId: string, index: number): StepDigest | undefined {
    const page = Math.floor(index / this.pageSize);
    const entry = this.pagesOf(runId).get(page);
    if (Array.isArray(entry)) return entry[index - page * this.pageSize];
    if (entry === undefined && !this.failures.has(runId)) this.fetch(runId, page);
    return undefined;
  }

  /** Why a run's steps could not be read, if they could not. */
  failure(runId: string): string | undefined {
    return this.failures.get(runId);
  }

  private pagesOf(runId: string) {
    let pages = this.pages.get(runId);
    if (!pages) {
      pages = new Map();
      this.pages.set(runId, pages);
    }
    return pages;
  }

  private fetch(runId: string, page: number): void {
    const pages = this.pagesOf(runId);
    const from = page * this.pageSize;
    const request = this.load(runId, from, from + this.pageSize).then(
      (steps) => {
        pages.set(page, steps);
        this.changed();
      },
      (error: unknown) => {
        pages.delete(page);
        this.failures.set(runId, error instanceof Error ? error.message : String(error));
        this.changed();
      },
    );
    pages.set(page, request);
  }
}
