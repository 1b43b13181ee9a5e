import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { ChatRequest } from '../../llm/llm-client';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { countRequestTokens } from '../../llm/token-count';
import { createTerminateTool } from '../terminate';
import { ok, type Tool } from '../tool';
import { IMAGE_REMOVED_NOTE, trimImages } from './tool-images';
import { VisualToolAgent } from '../../loop/visual-tool-agent';

/** A real tool (no mocks involved) that returns a numbered PNG with its output. */
function cameraTool(): Tool<{ label: string }> {
  let shots = 0;
  return {
    name: 'camera',
    description: 'Takes a picture.',
    schema: z.object({ label: z.string() }),
    execute: async ({ label }) => {
      shots++;
      return ok(`picture ${label}`, {
        image: { mimeType: 'image/png', data: Buffer.from(`png-${shots}`).toString('base64') },
      });
    },
  };
}

describe('tool images', () => {
  it('trimImages keeps the newest images and leaves a note on the older ones', () => {
    const messages: Message[] = [1, 2, 3, 4].map((n) => ({
      role: 'user',
      content: `shot ${n}`,
      image: { mimeType: 'image/jpeg', data: String(n) },
    }));
    expect(trimImages(messages, 2)).toBe(2);
    expect(messages.map((m) => m.image?.data ?? null)).toEqual([null, null, '3', '4']);
    expect(messages[0]!.content).toBe(`shot 1 ${IMAGE_REMOVED_NOTE}`);
    expect(trimImages(messages, 2)).toBe(0);
  });

  it('fixes openmanus 7.2 item 4: images go on user messages only, with their MIME type, and old ones are trimmed', async () => {
    const seen: { roles: string[]; imageRoles: string[]; images: number }[] = [];
    const llm = new ScriptedLlm((request: ChatRequest, index: number) => {
      const withImages = request.messages.filter((m) => m.image);
      seen.push({
        roles: request.messages.map((m) => m.role),
        imageRoles: withImages.map((m) => m.role),
        images: withImages.length,
      });
      if (index < 4) return { toolCalls: [{ name: 'camera', args: { label: `n${index}` } }] };
      return { content: 'done', toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
    const events: RunEventPayload[] = [];
    const agent = VisualToolAgent.create(
      { name: 'browser', maxSteps: 10, keepImages: 2 },
      { llm, tools: [cameraTool(), createTerminateTool()] },
      { emit: (e) => events.push(e), runId: 'run-images' },
    );
    const result = await agent.run('take four pictures');
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });

    // What the model received: never an image on a tool message, never more than 2.
    expect(seen.every((s) => s.imageRoles.every((r) => r === 'user'))).toBe(true);
    expect(seen.map((s) => s.images)).toEqual([0, 1, 2, 2, 2]);

    const memory = agent.memory.messages;
    expect(memory.filter((m) => m.role === 'tool' && m.image)).toHaveLength(0);
    const withImage = memory.filter((m) => m.image);
    expect(withImage.map((m) => m.image!.mimeType)).toEqual(['image/png', 'image/png']);
    expect(withImage.map((m) => Buffer.from(m.image!.data, 'base64').toString())).toEqual([
      'png-3',
      'png-4',
    ]);
    expect(memory.filter((m) => m.content?.includes(IMAGE_REMOVED_NOTE))).toHaveLength(2);

    // The context guard counts what is sent: a trimmed message is not counted with its image.
    const requested = events.findLast((e) => e.type === 'llm.requested');
    const lastRequest = llm.requests.at(-1)!;
    expect(requested?.type === 'llm.requested' && requested.inputTokens).toBe(
      countRequestTokens(structuredClone(lastRequest)),
    );

    // Each image message directly follows the tool message of the call that produced it.
    for (const [i, message] of memory.entries()) {
      if (message.role === 'user' && message.content?.startsWith('Image returned by')) {
        expect(memory[i - 1]).toMatchObject({ role: 'tool', name: 'camera' });
        expect(message.content).toContain(memory[i - 1]!.tool_call_id!);
      }
    }
    // The event stream carries the MIME type, not the bytes.
    const appended = events.filter(
      (e): e is Extract<RunEventPayload, { type: 'memory.appended' }> =>
        e.type === 'memory.appended',
    );
    const imageEvents = appended.filter((e) => JSON.stringify(e.message).includes('image/png'));
    expect(imageEvents).toHaveLength(4);
    expect(JSON.stringify(appended)).not.toContain(Buffer.from('png-1').toString('base64'));
  });
});

describe('a visual agent resumed with every kept image (a fork, issue 17)', () => {
  it('sends only its newest few, as it would have live', async () => {
    const sent: number[] = [];
    const llm = new ScriptedLlm((request: ChatRequest) => {
      sent.push(request.messages.filter((m) => m.image).length);
      return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
    const agent = VisualToolAgent.create(
      { name: 'browser', maxSteps: 5, keepImages: 1 },
      { llm, tools: [createTerminateTool()] },
      { emit: () => undefined, runId: 'run-fork' },
    );
    const shot = (n: number): Message => ({
      role: 'user',
      content: `shot ${n}`,
      image: { mimeType: 'image/png', data: String(n) },
    });
    await agent.run('go on', {
      resume: {
        entries: [
          { index: 0, message: { role: 'user', content: 'task' }, followsTurn: false },
          { index: 1, message: shot(1), followsTurn: true },
          { index: 2, message: shot(2), followsTurn: true },
        ],
        pinnedIndex: 0,
        nextIndex: 3,
        step: 1,
      },
    });
    expect(sent).toEqual([1]);
  });
});
