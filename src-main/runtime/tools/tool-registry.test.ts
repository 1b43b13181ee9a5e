import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createChatCompletionTool } from './create-chat-completion';
import { createTerminateTool } from './terminate';
import { ok, toolSpec, type Tool } from './tool';
import { ToolRegistry } from './tool-registry';

const context = undefined as never;

describe('tools', () => {
  it('terminate reports the status; its schema allows only success and failure', async () => {
    const terminate = createTerminateTool();
    expect(await terminate.execute({ status: 'failure' }, context)).toEqual({
      output: 'The interaction has been completed with status: failure',
    });
    expect(terminate.schema.safeParse({ status: 'done' }).success).toBe(false);
    expect(toolSpec(terminate).function.parameters).toMatchObject({
      type: 'object',
      properties: { status: { enum: ['success', 'failure'] } },
      required: ['status'],
    });
  });

  it('create_chat_completion returns the response, or the structured arguments for a custom schema', async () => {
    const plain = createChatCompletionTool();
    expect(await plain.execute({ response: 'Paris' }, context)).toEqual({ output: 'Paris' });
    expect(toolSpec(plain).function.parameters).toMatchObject({ required: ['response'] });
    const structured = createChatCompletionTool(
      z.object({ city: z.string(), population: z.number() }),
    );
    expect((await structured.execute({ city: 'Paris', population: 2 }, context)).output).toBe(
      '{"city":"Paris","population":2}',
    );
  });
});

describe('ToolRegistry', () => {
  const named = (name: string, dispose?: () => Promise<void>): Tool => ({
    name,
    description: name,
    schema: z.object({}),
    execute: async () => ok(name),
    ...(dispose ? { dispose } : {}),
  });

  it('is per instance (openmanus 7.2 item 8): two registries never share tools', () => {
    const a = new ToolRegistry([named('x')]);
    const b = new ToolRegistry();
    a.add(named('y'));
    expect(a.names).toEqual(['x', 'y']);
    expect(b.names).toEqual([]);
  });

  it('refuses a second tool with the same name, and refreshes its specs on change', () => {
    const registry = new ToolRegistry([named('x')]);
    expect(() => registry.add(named('x'))).toThrow(/collision/);
    const before = registry.specs();
    expect(registry.specs()).toBe(before);
    registry.add(named('z'));
    expect(registry.specs().map((s) => s.function.name)).toEqual(['x', 'z']);
    registry.remove('x');
    expect(registry.specs().map((s) => s.function.name)).toEqual(['z']);
  });

  it('disposes every tool even when one fails, and reports the failures', async () => {
    const disposed: string[] = [];
    const registry = new ToolRegistry([
      named('a', async () => {
        disposed.push('a');
      }),
      named('b', async () => {
        throw new Error('b is stuck');
      }),
      named('c', async () => {
        disposed.push('c');
      }),
    ]);
    await expect(registry.dispose()).rejects.toThrow(/failed to dispose/);
    expect(disposed).toEqual(['a', 'c']);
  });
});
