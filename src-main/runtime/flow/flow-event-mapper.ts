/**
 * Executors of a flow are fresh agents per plan step, each counting its steps from 1
 * and its memory indexes from 0. The run's event stream must keep one step counter and
 * never reuse a memory index for the same agent name (DESIGN section 2), so executor
 * events pass through this mapper, which shifts steps by the steps already run and
 * memory indexes by what that agent name already used.
 */
import type { RunEventPayload } from '@shared/events';

export class FlowEventMapper {
  private stepOffset = 0;
  private readonly indexOffsets = new Map<string, number>();
  private readonly indexesInSegment = new Map<string, number>();

  constructor(
    private readonly emit: (event: RunEventPayload) => void,
    private readonly flowMaxSteps: number,
  ) {}

  /** Steps run so far by all executors. */
  get stepsUsed(): number {
    return this.stepOffset;
  }

  /** Counts on from `steps` already run (a forked flow starts where its parent was). */
  startAt(steps: number): void {
    this.stepOffset = steps;
  }

  /** The emit function to give one executor run. Call `endSegment` when that run is over. */
  segment(): (event: RunEventPayload) => void {
    this.indexesInSegment.clear();
    return (event) => this.emit(this.map(event));
  }

  endSegment(stepsRun: number): void {
    this.stepOffset += stepsRun;
    for (const [agent, used] of this.indexesInSegment) {
      this.indexOffsets.set(agent, (this.indexOffsets.get(agent) ?? 0) + used);
    }
    this.indexesInSegment.clear();
  }

  private shiftIndex(agent: string, index: number): number {
    this.indexesInSegment.set(agent, Math.max(this.indexesInSegment.get(agent) ?? 0, index + 1));
    return index + (this.indexOffsets.get(agent) ?? 0);
  }

  private map(event: RunEventPayload): RunEventPayload {
    switch (event.type) {
      case 'step.started':
        return { ...event, step: event.step + this.stepOffset, maxSteps: this.flowMaxSteps };
      case 'step.finished':
      case 'llm.requested':
      case 'llm.delta':
      case 'llm.responded':
      case 'llm.retried':
      case 'tool.started':
      case 'tool.finished':
      case 'tool.progress':
      case 'tool.output':
        return { ...event, step: event.step + this.stepOffset };
      case 'stuck.detected': {
        const offset = this.indexOffsets.get(event.agent) ?? 0;
        return {
          ...event,
          step: event.step + this.stepOffset,
          duplicateOf: event.duplicateOf.map((i) => i + offset),
        };
      }
      case 'memory.appended':
        return { ...event, index: this.shiftIndex(event.agent, event.index) };
      case 'memory.truncated': {
        const offset = this.indexOffsets.get(event.agent) ?? 0;
        return { ...event, dropped: event.dropped.map((i) => i + offset) };
      }
      default:
        return event;
    }
  }
}
