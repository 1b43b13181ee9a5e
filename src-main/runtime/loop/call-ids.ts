/**
 * The tool-call ids of one agent's run. Ids must be unique: results are matched to calls
 * by id (and the UI keys on them), so a provider's duplicate or missing ids are replaced,
 * and ids the user gives to calls they add (debug-hooks.ts) are reserved here too.
 */
import type { ToolCall } from '@shared/domain/message';

export class CallIds {
  private readonly used = new Set<string>();

  has(id: string): boolean {
    return this.used.has(id);
  }

  claim(id: string): void {
    this.used.add(id);
  }

  /** The model's calls with ids made unique (an unchanged call keeps its object). */
  unique(calls: ToolCall[], step: number): ToolCall[] {
    return calls.map((call, i) => {
      let id = call.id || `call_${step}_${i + 1}`;
      for (let n = 2; this.used.has(id); n++) id = `${call.id || 'call'}_${step}_${n}`;
      this.used.add(id);
      return id === call.id ? call : { ...call, id };
    });
  }
}
