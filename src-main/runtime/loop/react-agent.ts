/**
 * ReActAgent (OpenManus agent/react.py): a step is `think()` then, when thinking asked
 * for an action, `act()`. ToolCallAgent implements both on native tool calling.
 */
import { BaseAgent, type StepContext } from './base-agent';

export abstract class ReActAgent extends BaseAgent {
  /** Decides the next action; true when there is something to act on. */
  protected abstract think(context: StepContext): Promise<boolean>;

  /** Carries out what `think` decided; returns a one-line summary of the step. */
  protected abstract act(context: StepContext): Promise<string>;

  /** The summary of a step whose thinking asked for no action. */
  protected noActionSummary(): string {
    return 'Thinking complete - no action needed';
  }

  protected async step(context: StepContext): Promise<string> {
    const shouldAct = await this.think(context);
    if (!shouldAct) return this.noActionSummary();
    return this.act(context);
  }
}
