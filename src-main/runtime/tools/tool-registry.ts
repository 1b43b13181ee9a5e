/**
 * A name-keyed set of tools, one per agent instance: never shared between instances
 * (openmanus.md 7.2 item 8: a class-level default made two SWE agents share a shell).
 */
import type { ToolSpec } from '../llm/llm-client';
import { toolSpec, type Tool } from './tool';

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private specsCache: ToolSpec[] | null = null;

  constructor(tools: Tool[] = []) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: Tool): void {
    if (this.tools.has(tool.name)) {
      throw new Error(`Tool name collision: "${tool.name}" is already registered`);
    }
    this.tools.set(tool.name, tool as Tool);
    this.specsCache = null;
  }

  remove(name: string): boolean {
    this.specsCache = null;
    return this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  /** OpenAI tool declarations; cached because they are sent with every model call */
  specs(): ToolSpec[] {
    this.specsCache ??= [...this.tools.values()].map(toolSpec);
    return this.specsCache;
  }

  async dispose(): Promise<void> {
    const results = await Promise.allSettled([...this.tools.values()].map((t) => t.dispose?.()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) {
      throw new AggregateError(
        failed.map((f) => f.reason as unknown),
        'Some tools failed to dispose',
      );
    }
  }
}
