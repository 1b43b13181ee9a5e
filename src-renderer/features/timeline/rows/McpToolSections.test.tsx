/**
 * An MCP tool card: its structuredContent as a collapsible tree beside the text result,
 * and a model call the server asked for (sampling) shown in the card as that server's
 * request (the model, what was asked, the answer, tokens), not lost as a tool's own call;
 * while it waits, the pending-call row names the server too.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryApi } from '../../../testing/memory-api';
import { renderApp } from '../../../testing/render-app';
import { RunScript } from '../../../testing/run-script';

async function showRun(script: RunScript) {
  const api = createMemoryApi();
  const app = await renderApp(api);
  act(() => api.push(script.events));
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  return { api, app };
}

describe('MCP tool card', () => {
  it('shows structuredContent as a tree next to the text result', async () => {
    const script = new RunScript('structured', 'mcp').start('t');
    const weather = { temperature: 73, conditions: 'Sunny', details: { wind: [3, 5] } };
    script.addStep({
      content: 'Checking',
      calls: [
        {
          name: 'mcp_everything_get-structured-content',
          args: { location: 'Los Angeles' },
          output: JSON.stringify(weather),
          structured: weather,
        },
      ],
    });
    await showRun(script);
    const card = screen.getByTestId('tool-call');
    expect(card.textContent).toContain('Result');
    const tree = within(card).getByTestId('tool-structured');
    const paths = () =>
      within(tree)
        .getAllByTestId('json-node')
        .map((n) => n.getAttribute('data-path'));
    expect(paths()).toEqual(['', '/temperature', '/conditions', '/details', '/details/wind']);
    const node = (path: string) =>
      within(tree)
        .getAllByTestId('json-node')
        .find((n) => n.getAttribute('data-path') === path)!;
    expect(node('/temperature').textContent).toBe('temperature: 73');
    expect(node('/conditions').textContent).toBe('conditions: "Sunny"');
    // the third level is folded: unfold it
    await act(async () => fireEvent.click(within(node('/details/wind')).getByLabelText('Unfold')));
    expect(paths()).toContain('/details/wind/1');
    expect(node('/details/wind/1').textContent).toBe('1: 5');
  });

  it("shows a server's sampling call as a model call in the tool's card", async () => {
    const script = new RunScript('sampled', 'mcp').start('t');
    const sampling = (answered: boolean) => [
      {
        type: 'llm.requested' as const,
        agent: 'mcp',
        step: 1,
        model: 'gpt-sampler',
        messageCount: 1,
        inputTokens: 12,
        sampledBy: 'everything',
        messages: [{ role: 'user' as const, content: 'Resource sampleLLM context: hello' }],
      },
      ...(answered
        ? [
            {
              type: 'llm.responded' as const,
              agent: 'mcp',
              step: 1,
              model: 'gpt-sampler',
              content: 'Hello back',
              toolCalls: [],
              usage: { prompt: 12, completion: 3 },
              durationMs: 250,
              finishReason: 'stop',
            },
          ]
        : []),
    ];
    script.addStep({
      content: 'Sampling',
      calls: [
        {
          name: 'mcp_everything_trigger-sampling-request',
          args: { prompt: 'hello' },
          output: 'LLM sampling result: Hello back',
          during: sampling(true),
        },
      ],
    });
    await showRun(script);
    const card = screen.getByTestId('tool-call');
    const call = within(card).getByTestId('tool-sampling');
    expect(call.getAttribute('data-server')).toBe('everything');
    expect(call.getAttribute('data-model')).toBe('gpt-sampler');
    expect(call.getAttribute('data-answered')).toBe('true');
    expect(call.textContent).toContain('Model call: sampling request of MCP server everything');
    expect(call.textContent).toContain('asked: Resource sampleLLM context: hello');
    expect(call.textContent).toContain('answered: Hello back');
    expect(call.textContent).toContain('12 in / 3 out');
    // the agent's own reply of the step is still the agent's
    const assistant = screen
      .getAllByTestId('timeline-message')
      .filter((m) => m.getAttribute('data-role') === 'assistant');
    expect(assistant).toHaveLength(1);
    expect(assistant[0]!.textContent).toContain('Sampling');
  });

  it('names the server in the pending-call row while its sampling call waits', async () => {
    const script = new RunScript('waiting', 'mcp').start('t');
    script.emit({ type: 'step.started', agent: 'mcp', step: 1, maxSteps: 20 });
    script.emit({
      type: 'tool.started',
      agent: 'mcp',
      step: 1,
      toolCallId: 'c1',
      name: 'mcp_everything_trigger-sampling-request',
      args: {},
    });
    script.emit({
      type: 'llm.requested',
      agent: 'mcp',
      step: 1,
      model: 'gpt-sampler',
      messageCount: 1,
      inputTokens: 5,
      sampledBy: 'everything',
    });
    await showRun(script);
    expect(screen.getByTestId('pending-call-sampling').textContent).toBe(
      ' (sampling request of MCP server everything)',
    );
    expect(screen.getByTestId('tool-sampling').getAttribute('data-answered')).toBe('false');
  });
});
