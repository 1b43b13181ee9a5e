/**
 * ToolCallAgent: think (one model call with the tools) then act (run the requested
 * tool calls in order). OpenManus agent/toolcall.py, with its defects fixed.
 */
import type { Message, ToolCall } from '@shared/domain/message';
import type { LlmClient } from '../llm/llm-client';
import type { ToolRegistry } from '../tools/tool-registry';
import {
  AgentError,
  BaseAgent,
  type AgentEnvironment,
  type AgentSettings,
  type StepContext,
} from './base-agent';
import { executeToolCall } from './tool-execution';

export interface ToolCallAgentSettings extends AgentSettings {
  systemPrompt?: string;
  nextStepPrompt?: string;
  specialToolNames?: string[];
  maxObserve?: number;
}

export interface ToolCallAgentDeps {
  llm: LlmClient;
  tools: ToolRegistry;
}

export const TOOLCALL_DEFAULT_MAX_STEPS = 30;

export class ToolCallAgent extends BaseAgent {
  protected readonly llm: LlmClient;
  readonly tools: ToolRegistry;
  protected systemPrompt: string | undefined;
  protected nextStepPrompt: string | undefined;
  protected readonly specialToolNames: Set<string>;
  protected readonly maxObserve: number | undefined;
  private pendingCalls: ToolCall[] = [];

  constructor(settings: ToolCallAgentSettings, deps: ToolCallAgentDeps, env: AgentEnvironment) {
    super(settings, env);
    this.llm = deps.llm;
    this.tools = deps.tools;
    this.systemPrompt = settings.systemPrompt;
    this.nextStepPrompt = settings.nextStepPrompt;
    this.specialToolNames = new Set(settings.specialToolNames ?? ['terminate']);
    this.maxObserve = settings.maxObserve;
  }

  protected async step(context: StepContext): Promise<string> {
    const shouldAct = await this.think(context);
    if (!shouldAct) return 'Thinking complete - no action needed';
    return this.act(context);
  }

  protected async think(context: StepContext): Promise<boolean> {
    if (this.nextStepPrompt) this.addMessage({ role: 'user', content: this.nextStepPrompt });
    const messages: Message[] = this.systemPrompt
      ? [{ role: 'system', content: this.systemPrompt }, ...this.memory.messages]
      : this.memory.messages;
    const started = performance.now();
    this.env.emit({
      type: 'llm.requested',
      agent: this.name,
      step: context.step,
      model: this.llm.model,
      messageCount: messages.length,
      inputTokens: 0,
    });
    const response = await this.llm.complete(
      { messages, tools: this.tools.specs(), toolChoice: 'auto' },
      { signal: context.signal },
    );
    this.addUsage(response.usage);
    this.env.emit({
      type: 'llm.responded',
      agent: this.name,
      step: context.step,
      model: response.model,
      content: response.content,
      toolCalls: response.toolCalls,
      usage: response.usage,
      durationMs: Math.round(performance.now() - started),
      finishReason: response.finishReason,
    });
    this.pendingCalls = response.toolCalls;
    const assistant: Message = { role: 'assistant', content: response.content };
    if (response.toolCalls.length > 0) assistant.tool_calls = response.toolCalls;
    this.addMessage(assistant);
    return response.toolCalls.length > 0;
  }

  protected async act(context: StepContext): Promise<string> {
    const results: string[] = [];
    const calls = this.pendingCalls;
    this.pendingCalls = [];
    for (const [position, call] of calls.entries()) {
      if (this.state !== 'RUNNING') {
        // A special tool ended the run: the rest of the batch is answered, not executed
        // (fixes openmanus.md 7.2 item 6 while keeping every tool_call_id answered).
        this.answerSkipped(calls.slice(position), context);
        break;
      }
      const outcome = await executeToolCall(call, {
        tools: this.tools,
        agent: this.name,
        runId: this.env.runId,
        step: context.step,
        signal: context.signal,
        emit: this.env.emit,
        maxObserve: this.maxObserve,
      });
      this.addMessage({
        role: 'tool',
        content: outcome.observation,
        tool_call_id: call.id,
        name: call.function.name,
      });
      results.push(outcome.observation);
      if (outcome.ok && this.specialToolNames.has(call.function.name)) {
        this.terminateStatus = outcome.terminateStatus;
        this.setState('FINISHED');
      }
    }
    return results.join('\n\n');
  }

  private answerSkipped(calls: ToolCall[], context: StepContext): void {
    for (const call of calls) {
      const reason = `Not executed: ${this.name} finished before this call`;
      this.env.emit({
        type: 'tool.started',
        agent: this.name,
        step: context.step,
        toolCallId: call.id,
        name: call.function.name,
        args: call.function.arguments,
      });
      this.env.emit({
        type: 'tool.finished',
        agent: this.name,
        step: context.step,
        toolCallId: call.id,
        name: call.function.name,
        ok: false,
        output: '',
        error: reason,
        durationMs: 0,
      });
      this.addMessage({
        role: 'tool',
        content: reason,
        tool_call_id: call.id,
        name: call.function.name,
      });
    }
  }

  protected fail(message: string): never {
    throw new AgentError(message);
  }
}
