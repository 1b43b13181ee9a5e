/**
 * Routes `ask_human` questions to whichever surface can answer them: the desktop
 * window, a browser connected to `workbench serve`, or an interactive terminal. The
 * tool calls `ask()`; it resolves when a surface answers (`human:answer`) and rejects
 * when the run is cancelled or nobody can answer (a non-interactive CLI run), so the
 * run never hangs on a question no one will see. Waiting blocks nothing else
 * (openmanus.md 7.2 item 11: the original blocked the event loop on `input()`).
 */
import type { HumanForm } from '@shared/elicitation';
import type { RunEventPayload } from '@shared/events';
import { abortError } from '../util/abort';

export interface HumanQuestion {
  runId: string;
  toolCallId: string;
  question: string;
  askedAt: number;
  /** an MCP server's elicitation: the form to fill; the answer is an ElicitAnswer's JSON */
  form?: HumanForm;
}

/** Something a person can answer through. `onQuestion` is for surfaces that must prompt. */
export interface HumanSurface {
  name: string;
  onQuestion?(question: HumanQuestion): void;
}

export interface HumanAskRequest {
  runId: string;
  toolCallId: string;
  question: string;
  signal: AbortSignal;
  /** the run's emitter: the broker reports `human.requested` and `human.answered` */
  emit: (event: RunEventPayload) => void;
  form?: HumanForm;
  /** checks an answer before it is taken: the problem in words, or null */
  validate?: (answer: string) => string | null;
}

export class HumanUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HumanUnavailableError';
  }
}

export type AnswerOutcome = 'accepted' | 'not_found' | { invalid: string };

interface Waiting {
  question: HumanQuestion;
  validate?: (answer: string) => string | null;
  resolve(answer: string): void;
}

export class HumanBroker {
  private readonly surfaces = new Set<HumanSurface>();
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    /** said when no surface is attached, so the model (and the user) learn why */
    private readonly unavailableReason = 'No one can answer: this run is not interactive. ' +
      'Run it from the desktop app, `workbench serve`, or `workbench run` in a terminal.',
  ) {}

  /** A surface that can answer from now on; call the returned function when it goes. */
  attach(surface: HumanSurface): () => void {
    this.surfaces.add(surface);
    for (const w of this.waiting.values()) surface.onQuestion?.(w.question);
    return () => {
      this.surfaces.delete(surface);
    };
  }

  get hasSurface(): boolean {
    return this.surfaces.size > 0;
  }

  ask(request: HumanAskRequest): Promise<string> {
    if (request.signal.aborted) return Promise.reject(abortError(request.signal));
    if (!this.hasSurface) return Promise.reject(new HumanUnavailableError(this.unavailableReason));
    const key = keyOf(request.runId, request.toolCallId);
    if (this.waiting.has(key)) {
      return Promise.reject(
        new Error(`A question for tool call ${request.toolCallId} is already waiting`),
      );
    }
    const question: HumanQuestion = {
      runId: request.runId,
      toolCallId: request.toolCallId,
      question: request.question,
      askedAt: Date.now(),
      ...(request.form ? { form: request.form } : {}),
    };
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(key);
        reject(abortError(request.signal));
      };
      this.waiting.set(key, {
        question,
        ...(request.validate ? { validate: request.validate } : {}),
        resolve: (answer) => {
          request.signal.removeEventListener('abort', onAbort);
          this.waiting.delete(key);
          request.emit({ type: 'human.answered', toolCallId: request.toolCallId, answer });
          resolve(answer);
        },
      });
      request.signal.addEventListener('abort', onAbort, { once: true });
      request.emit({
        type: 'human.requested',
        toolCallId: request.toolCallId,
        question: request.question,
        ...(request.form ? { form: request.form } : {}),
      });
      for (const surface of this.surfaces) {
        try {
          surface.onQuestion?.(question);
        } catch (error) {
          console.error(
            `[workbench] ${surface.name} could not show a question: ${(error as Error).message}`,
          );
        }
      }
    });
  }

  answer(runId: string, toolCallId: string, answer: string): AnswerOutcome {
    const waiting = this.waiting.get(keyOf(runId, toolCallId));
    if (!waiting) return 'not_found';
    // A form's answer that does not fit its schema is refused; the question stays open.
    const problem = waiting.validate?.(answer) ?? null;
    if (problem !== null) return { invalid: problem };
    waiting.resolve(answer);
    return 'accepted';
  }

  pending(runId?: string): HumanQuestion[] {
    return [...this.waiting.values()]
      .map((w) => w.question)
      .filter((q) => runId === undefined || q.runId === runId);
  }
}

function keyOf(runId: string, toolCallId: string): string {
  return `${runId}\u0000${toolCallId}`;
}
