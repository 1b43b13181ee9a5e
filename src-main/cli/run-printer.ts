/**
 * What `workbench run` prints while a run goes (stderr), and the answer it leaves on
 * stdout when the run finished (follow-run.ts): `workbench run TASK > out.txt` keeps the
 * answer, the terminal shows the progress. The state line follows the run's own agent
 * only (a flow's executors start and finish once per plan step); plan steps get their
 * own headers; the outcome line is the run's verdict (docs/run-outcome.md).
 */
import type { EventImage, PlanStep, RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';
import { healthParts, runVerdict, type RunVerdict } from '@shared/run-outcome';
import { formatEvent, oneLine } from './format-event';
import { LiveOutputLines } from './live-output';
import { terminalSafe } from './terminal-text';
import { isImageRef } from '@shared/image-ref';

const nullable = (text: string | null, f: (t: string) => string) =>
  text === null ? null : f(text);

/** Tools whose output is the agent's answer (the bare ToolCallAgent answers with it). */
const ANSWER_TOOLS = new Set(['create_chat_completion']);

export class RunPrinter {
  private summary: RunSummary | undefined;
  private planSteps: PlanStep[] = [];
  private answer: string | undefined;
  private readonly live = new LiveOutputLines();
  /**
   * The run's last state change (to FINISHED or ERROR), held until run.finished says
   * the outcome: a stopped run's agent ends FINISHED, and a bare `RUNNING → FINISHED`
   * above `■ cancelled` reads like a contradiction (docs/run-outcome.md).
   */
  private endState: Extract<RunEvent, { type: 'state.changed' }> | undefined;

  constructor(
    private readonly write: (line: string) => void,
    /** where the history keeps a run's image (the line names the file) */
    private readonly imagePath?: (runId: string, ref: string) => string | undefined,
    /** a live run: the line saying where its files are on the host (workspace-line.ts) */
    private readonly workspaceOf?: (
      event: Extract<RunEvent, { type: 'run.started' }>,
    ) => string | undefined,
  ) {}

  onEvent(event: RunEvent): void {
    this.summary = applyToSummary(this.summary, event) ?? this.summary;
    const line = this.format(event);
    if (line) this.write(line);
  }

  /**
   * The events ended (a history without run.finished: the app stopped): a held state line
   * is printed as it came, with no outcome to name.
   */
  end(): void {
    const held = this.takeEndState();
    if (held) this.write(held);
  }

  get verdict(): RunVerdict | undefined {
    return this.summary?.outcome ? runVerdict(this.summary) : undefined;
  }

  /** The run's final answer: its last words, or the output of an answering tool. */
  get finalAnswer(): string | undefined {
    return this.answer;
  }

  /** The one line that says how the run ended (also the stdout fallback). */
  outcomeLine(): string | undefined {
    const s = this.summary;
    if (!s?.outcome) return undefined;
    const tokens = `${s.usage.prompt} prompt + ${s.usage.completion} completion tokens`;
    const health = healthParts(s.health).map((p) => p.text);
    const extra = health.length > 0 ? `; ${health.join(', ')}` : '';
    return `■ ${runVerdict(s).label} after ${s.steps} steps (${tokens}${extra})${s.error ? `: ${s.error}` : ''}`;
  }

  private format(event: RunEvent): string | null {
    switch (event.type) {
      case 'state.changed': {
        // A flow's executors have their own cycles: the plan-step headers say what runs.
        if (event.agent !== this.summary?.agent) return null;
        const earlier = this.takeEndState();
        if (earlier) this.write(earlier);
        if (event.to === 'FINISHED' || event.to === 'ERROR') {
          this.endState = event;
          return null;
        }
        return formatEvent(event);
      }
      case 'run.started': {
        const where = this.workspaceOf?.(event);
        const line = formatEvent(event);
        return where === undefined || line === null ? line : `${line}\n${where}`;
      }
      case 'plan.updated':
        return this.planLines(event.title, event.steps);
      case 'memory.appended':
        if (event.message.role === 'assistant' && event.message.content?.trim()) {
          this.answer = event.message.content.trim();
        }
        if (event.message.image) {
          // A history can come from anywhere (an import): only a ref of the exact pattern
          // is looked up, and only a file the history holds is named.
          const { ref } = event.message.image;
          const path =
            typeof ref === 'string' && isImageRef(ref)
              ? this.imagePath?.(event.runId, ref)
              : undefined;
          return terminalSafe(imageLine(event.message.image, path));
        }
        if (event.message.imageMimeType !== undefined) {
          // recorded before histories kept images
          return terminalSafe(`  image: ${event.message.imageMimeType} (not kept in this history)`);
        }
        return formatEvent(event);
      case 'tool.output':
        return nullable(this.live.onOutput(event), terminalSafe);
      case 'tool.finished': {
        const rest = nullable(this.live.onFinished(event.toolCallId), terminalSafe);
        if (rest) this.write(rest);
        if (event.ok && ANSWER_TOOLS.has(event.name) && event.output.trim()) {
          this.answer = event.output.trim();
        }
        return formatEvent(event);
      }
      case 'run.finished': {
        const lines = [this.takeEndState(this.verdict), this.outcomeLine()].filter(
          (line): line is string => line !== undefined,
        );
        return lines.length > 0 ? lines.join('\n') : null;
      }
      default:
        return formatEvent(event);
    }
  }

  /**
   * The held state line, naming the outcome when it is not a plain finish (as the
   * timeline's state marker does: `RUNNING → FINISHED (outcome: cancelled)`).
   */
  private takeEndState(verdict?: RunVerdict): string | undefined {
    const event = this.endState;
    this.endState = undefined;
    const line = event ? formatEvent(event) : null;
    if (line === null) return undefined;
    if (!verdict || verdict.kind === 'finished') return line;
    return `${line} (outcome: ${terminalSafe(verdict.label)})`;
  }

  /** The plan when it is first made, then one header per step that starts, ends or is blocked. */
  private planLines(title: string, steps: PlanStep[]): string | null {
    const previous = this.planSteps;
    this.planSteps = steps;
    const total = steps.length;
    if (previous.length === 0) {
      const list = steps.map((s, i) => `    ${i + 1}. ${oneLine(s.text, 120)}`);
      return [`☰ plan "${oneLine(title, 80)}" (${total} steps)`, ...list].join('\n');
    }
    const lines: string[] = [];
    steps.forEach((step, i) => {
      const before = previous[i];
      if (before?.text === step.text && before.status === step.status) return;
      const who = step.agent ? ` (${step.agent})` : '';
      const label = `plan step ${i + 1}/${total}${who}`;
      if (step.status === 'in_progress' && before?.status !== 'in_progress') {
        lines.push(`▶ ${label}: ${oneLine(step.text, 120)}`);
      } else if (step.status === 'completed') {
        lines.push(`  ✓ ${label} completed${step.notes ? `: ${oneLine(step.notes, 120)}` : ''}`);
      } else if (step.status === 'blocked') {
        lines.push(`  ⊘ ${label} blocked${step.notes ? `: ${oneLine(step.notes, 120)}` : ''}`);
      } else if (before && before.text !== step.text) {
        lines.push(`  ☰ ${label} revised: ${oneLine(step.text, 120)}`);
      }
    });
    return lines.length > 0 ? lines.join('\n') : null;
  }
}

/**
 * `  image: image/png 1280×720, 34 KB → /home/.../runs/RUN.images/<sha>.png`, where the
 * path is the file the history holds; without one, the image is missing (never the ref
 * itself: from an imported history it may be any text, a path elsewhere included).
 */
export function imageLine(image: EventImage, path: string | undefined): string {
  const size = image.width && image.height ? ` ${image.width}×${image.height}` : '';
  const what = `${image.mimeType}${size}, ${formatBytes(image.bytes)}`;
  if (image.notKept !== undefined) return `  image: ${what} (not kept: ${image.notKept})`;
  if (path === undefined) return `  image: ${what} (image file missing)`;
  return `  image: ${what} → ${path}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
