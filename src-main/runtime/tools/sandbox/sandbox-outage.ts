/**
 * What an agent's sandbox tools answer once the sandbox is definitely unavailable for its
 * run (issue 25 item 1; `isDefiniteFailure`: no engine answers, the image cannot be had,
 * the sandbox is off). The sandbox is not asked again in that run: every later call gets
 * the same failure at once, so a run costs one attempt (one pull, one connection), not
 * one per call. Whether the run goes on depends on how much the agent needs the sandbox
 * (docs/run-outcome.md, "A sandbox that cannot start"):
 *
 * - `required` (swe: its only tools are sandbox tools): the first such call ends the run
 *   as `error`; nothing it could do next would work, so no further model call is made.
 * - `optional` (Manus: it also has the browser, ask_human, MCP tools): the call fails and
 *   tells the model that the sandbox tools cannot be used in this run and that calling one
 *   again ends it. The other calls of the same reply (made before the model could know)
 *   get the same answer. A sandbox call in a later reply ends the run: the model needs the
 *   sandbox, and every step it takes would be another paid call failing the same way.
 *
 * Every answer starts with the sandbox's own message (the cause and the fix), so the UI
 * folds these calls into the one "sandbox could not start" banner.
 */
import type { SandboxError } from '../../sandbox/errors';
import { isDefiniteFailure } from '../../sandbox/errors';
import { fail, type ToolResult } from '../tool';

/** How much an agent needs the sandbox; agents without sandbox tools need it not at all. */
export type SandboxNeed = 'required' | 'optional';

/** The sandbox call being answered: which tool, in which step of the agent. */
export interface SandboxCall {
  tool: string;
  step: number;
}

export class SandboxOutage {
  private cause: SandboxError | null = null;
  /** the step whose calls first met the outage: the model knows from the step after it */
  private toldAt: number | null = null;

  constructor(
    private readonly need: SandboxNeed,
    /** the agent's sandbox tools, named in what the model is told */
    private readonly toolNames: readonly string[],
  ) {}

  /** The failure that made the sandbox unavailable for this run, if one did. */
  get failure(): SandboxError | null {
    return this.cause;
  }

  /**
   * Keeps the first definite failure. Returns the outage's failure when `error` is definite
   * (a second one, e.g. a call that raced the pre-warm, belongs to the same outage), else
   * null: the error is the one call's own.
   */
  record(error: unknown): SandboxError | null {
    if (!isDefiniteFailure(error)) return null;
    this.cause ??= error;
    return this.cause;
  }

  /** The result of a call that met the outage (`failure` must be set). */
  answer(call: SandboxCall): ToolResult {
    const cause = this.cause?.message ?? 'The sandbox could not start.';
    if (this.need === 'required') {
      return fail(`${cause} The run ends here: every tool of this agent needs the sandbox.`, {
        endsRun: true,
      });
    }
    if (this.toldAt === null || this.toldAt === call.step) {
      this.toldAt = call.step;
      return fail(
        `${cause} The sandbox tools (${this.toolNames.join(', ')}) cannot be used in this run. ` +
          'Go on with your other tools, or call `terminate` if the task cannot be done without ' +
          'them; calling a sandbox tool again ends the run.',
      );
    }
    return fail(
      `${cause} The run ends here: \`${call.tool}\` was called after the model was told that ` +
        'the sandbox tools cannot be used in this run.',
      { endsRun: true },
    );
  }
}
