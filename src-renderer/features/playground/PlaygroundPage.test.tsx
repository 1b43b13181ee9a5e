/**
 * The playground page over the in-memory API: the address opens a model call, a message
 * and a parameter edited are exactly what Send sends (the raw view is that body), the
 * samples stream in from `playground:delta` pushes beside the recorded reply with a
 * diff, and the system prompt is saved into the run's agent (a built-in only as a copy).
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  PlaygroundRequestView,
  PlaygroundSavePromptInput,
  PlaygroundSendInput,
  PlaygroundSendResult,
} from '@shared/ipc';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';

const VIEW: PlaygroundRequestView = {
  runId: 'run-1',
  seq: 7,
  agent: 'manus',
  step: 2,
  body: {
    model: 'gpt-rec',
    messages: [
      { role: 'system', content: 'You are Manus at /workspace.' },
      { role: 'user', content: 'list the files' },
    ],
    tools: [{ type: 'function', function: { name: 'bash', description: 'd', parameters: {} } }],
    tool_choice: 'auto',
    temperature: 0,
    max_tokens: 100,
  },
  isRecorded: true,
  recordedReply: {
    content: 'I will list them.',
    toolCalls: [],
    finishReason: 'stop',
    usage: { prompt: 10, completion: 5 },
  },
  profile: 'default',
  profiles: [
    { name: 'default', model: 'gpt-rec' },
    { name: 'fast', model: 'gpt-fast' },
  ],
  agentDefinition: {
    name: 'manus',
    source: 'builtin',
    version: 1,
    systemPrompt: 'You are Manus at {{work_dir}}.',
  },
};

async function openPlayground(view = VIEW) {
  const api = createMemoryApi();
  api.override('openPlayground', async () => view);
  const sent: PlaygroundSendInput[] = [];
  let finish: (result: PlaygroundSendResult) => void = () => undefined;
  api.override('sendPlayground', (input: PlaygroundSendInput) => {
    sent.push(input);
    return new Promise<PlaygroundSendResult>((resolve) => (finish = resolve));
  });
  const saved: PlaygroundSavePromptInput[] = [];
  api.override('savePlaygroundPrompt', async (input: PlaygroundSavePromptInput) => {
    saved.push(input);
    return { name: input.asName ?? 'manus', version: 1, isDuplicate: true };
  });
  window.location.hash = '#/playground/run-1/7';
  const rendered = await renderApp(api);
  await screen.findByTestId('playground-page');
  return { api, sent, saved, finish: (r: PlaygroundSendResult) => finish(r), ...rendered };
}

const param = (name: string) =>
  document.querySelector(
    `[data-testid="playground-param"][data-param="${name}"]`,
  ) as HTMLInputElement;

describe('the playground page', () => {
  it('opens the call the address names and sends exactly the edited body, N samples', async () => {
    const { api, sent, finish, store } = await openPlayground();
    expect(store.getState().view).toBe('playground');
    expect(api.calls.find((c) => c.method === 'openPlayground')?.input).toEqual({
      runId: 'run-1',
      seq: 7,
    });
    const texts = screen.getAllByTestId('playground-message-text') as HTMLTextAreaElement[];
    expect(texts.map((t) => t.value)).toEqual(['You are Manus at /workspace.', 'list the files']);
    fireEvent.change(texts[1]!, { target: { value: 'list the hidden files' } });
    fireEvent.change(param('temperature'), { target: { value: '0.7' } });
    fireEvent.change(screen.getByTestId('playground-samples'), { target: { value: '3' } });
    // the raw view is the body that will be sent
    fireEvent.click(
      document.querySelector('[data-testid="playground-tab"][data-tab="raw"]') as HTMLElement,
    );
    const raw = JSON.parse((screen.getByTestId('playground-raw') as HTMLTextAreaElement).value);
    fireEvent.click(screen.getByTestId('playground-send'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ profile: 'default', samples: 3 });
    expect(sent[0]!.body).toEqual(raw);
    expect(raw).toEqual({
      ...VIEW.body,
      temperature: 0.7,
      messages: (VIEW.body['messages'] as unknown[]).map((m, i) =>
        i === 1 ? { role: 'user', content: 'list the hidden files' } : m,
      ),
    });

    // streamed text appears per sample, then the answer settles each one
    const sendId = sent[0]!.sendId;
    act(() => {
      api.pushPlaygroundDelta({ sendId, sample: 0, text: 'I will ' });
      api.pushPlaygroundDelta({ sendId, sample: 0, text: 'look.' });
      api.pushPlaygroundDelta({ sendId: 'another-send', sample: 1, text: 'not mine' });
    });
    const columns = () => screen.getAllByTestId('playground-sample');
    expect(columns()).toHaveLength(3);
    expect(columns()[0]!.getAttribute('data-state')).toBe('streaming');
    expect(columns()[0]!.textContent).toContain('I will look.');
    expect(columns()[1]!.textContent).not.toContain('not mine');
    const reply = (index: number, content: string) => ({
      index,
      content,
      toolCalls: [],
      finishReason: 'stop',
    });
    await act(async () => {
      finish({
        sendId,
        mode: 'requests',
        samples: [
          reply(0, 'I will look.'),
          reply(1, 'I will list them.'),
          reply(2, 'I will look.'),
        ],
      });
    });
    await waitFor(() => expect(columns()[2]!.getAttribute('data-state')).toBe('done'));
    expect(screen.getByTestId('playground-recorded').textContent).toContain('I will list them.');
    const diffs = screen.getAllByTestId('playground-diff');
    expect(diffs[0]!.querySelector('.diff-added')?.textContent).toContain('I will look.');
    expect(diffs[0]!.querySelector('.diff-removed')?.textContent).toContain('I will list them.');
    expect(diffs[1]!.textContent).toContain('Same as the recorded reply');
    expect(screen.getByTestId('playground-variance').textContent).toContain(
      '2 different replies in 3 samples; 1 equal to the recorded one',
    );
  });

  it("changing the profile changes the model to the profile's own", async () => {
    const { sent } = await openPlayground();
    fireEvent.change(screen.getByTestId('playground-profile'), { target: { value: 'fast' } });
    expect(param('model').value).toBe('gpt-fast');
    fireEvent.click(screen.getByTestId('playground-send'));
    expect(sent[0]).toMatchObject({ profile: 'fast', body: { model: 'gpt-fast' } });
  });

  it('holds Send back while a field is not valid', async () => {
    await openPlayground();
    fireEvent.change(param('max_tokens'), { target: { value: 'lots' } });
    expect((screen.getByTestId('playground-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(param('max_tokens'), { target: { value: '' } });
    expect((screen.getByTestId('playground-send') as HTMLButtonElement).disabled).toBe(false);
  });

  it('saves an edited system prompt into a copy of a built-in agent', async () => {
    const { saved } = await openPlayground();
    const texts = screen.getAllByTestId('playground-message-text') as HTMLTextAreaElement[];
    // untouched: the panel starts from the agent's template
    expect((screen.getByTestId('playground-save-prompt') as HTMLTextAreaElement).value).toBe(
      'You are Manus at {{work_dir}}.',
    );
    fireEvent.change(texts[0]!, { target: { value: 'You are Manus. Be terse.' } });
    const prompt = screen.getByTestId('playground-save-prompt') as HTMLTextAreaElement;
    expect(prompt.value).toBe('You are Manus. Be terse.');
    fireEvent.change(screen.getByTestId('playground-save-name'), { target: { value: 'terse' } });
    fireEvent.click(screen.getByTestId('playground-save-button'));
    await screen.findByTestId('playground-saved');
    expect(saved).toEqual([
      { runId: 'run-1', systemPrompt: 'You are Manus. Be terse.', asName: 'terse' },
    ]);
    expect(screen.getByTestId('playground-saved').querySelector('a')?.getAttribute('href')).toBe(
      '#/agents/terse',
    );
  });

  it('says why a call cannot be opened', async () => {
    const api = createMemoryApi();
    window.location.hash = '#/playground/run-1/99';
    await renderApp(api);
    expect((await screen.findByTestId('playground-error')).textContent).toContain(
      'has no model call at event 99',
    );
  });
});
