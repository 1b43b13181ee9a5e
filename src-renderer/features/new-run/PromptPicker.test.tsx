/**
 * New run, mcp agent: "start from an MCP prompt" lists each configured server's prompts
 * (one request per server: each shows its progress, then its prompts or its error), a
 * prompt is picked, its arguments filled (required ones marked and checked), and the run
 * starts with `prompt`; the task box may stay empty.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { McpServerPrompts } from '@shared/ipc';
import { configView, sectionsView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';

const stdio = (name: string) => ({
  name,
  type: 'stdio' as const,
  command: 'node',
  args: [],
  env: {},
});

describe('New run: MCP prompt picker', () => {
  it('lists prompts per server with progress and errors, fills arguments, starts with prompt', async () => {
    const config = configView();
    config.sections = sectionsView([stdio('everything'), stdio('broken')]);
    const api = createMemoryApi({ config });
    let answerEverything: (value: McpServerPrompts[]) => void = () => {};
    api.override('listMcpPrompts', async ({ server }) => {
      if (server === 'broken')
        return [{ server: 'broken', prompts: [], error: 'Could not connect: spawn ENOENT' }];
      return new Promise<McpServerPrompts[]>((resolve) => (answerEverything = resolve));
    });
    await renderApp(api);
    fireEvent.change(screen.getByTestId('agent-select'), { target: { value: 'mcp' } });
    await act(async () => fireEvent.click(screen.getByTestId('prompt-toggle')));
    await flush();
    const row = (server: string) =>
      screen
        .getAllByTestId('prompt-server')
        .find((el) => el.getAttribute('data-server') === server)!;
    expect(row('everything').getAttribute('data-status')).toBe('listing');
    expect(row('everything').textContent).toContain('connecting and listing its prompts');
    expect(row('broken').getAttribute('data-status')).toBe('failed');
    expect(row('broken').textContent).toContain('Could not connect: spawn ENOENT');
    expect(api.calls.filter((c) => c.method === 'listMcpPrompts').map((c) => c.input)).toEqual([
      { server: 'everything' },
      { server: 'broken' },
    ]);

    await act(async () =>
      answerEverything([
        {
          server: 'everything',
          prompts: [
            { name: 'simple-prompt', arguments: [] },
            {
              name: 'args-prompt',
              description: 'A prompt with arguments',
              arguments: [
                { name: 'city', description: 'Name of the city', required: true },
                { name: 'state', required: false },
              ],
            },
          ],
        },
      ]),
    );
    expect(row('everything').textContent).toContain('2 prompts');
    const select = screen.getByTestId('prompt-select') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual([
      '',
      'everything/simple-prompt',
      'everything/args-prompt',
    ]);
    await act(async () =>
      fireEvent.change(select, { target: { value: 'everything/args-prompt' } }),
    );
    const args = screen.getAllByTestId('prompt-arg');
    expect(args.map((a) => [a.getAttribute('data-arg'), a.getAttribute('data-required')])).toEqual([
      ['city', 'true'],
      ['state', 'false'],
    ]);
    expect(within(screen.getByTestId('prompt-picker')).getAllByLabelText('required')).toHaveLength(
      1,
    );

    // the required argument is checked before starting; the task box may stay empty
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(screen.getByTestId('run-start-error').textContent).toBe(
      'The prompt everything/args-prompt requires city',
    );
    expect(api.calls.some((c) => c.method === 'startRun')).toBe(false);
    fireEvent.change(args[0]!, { target: { value: 'Paris' } });
    await act(async () => fireEvent.click(screen.getByTestId('run-start')));
    expect(api.calls.find((c) => c.method === 'startRun')?.input).toEqual({
      task: '',
      agent: 'mcp',
      prompt: { server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } },
    });
  });
});
