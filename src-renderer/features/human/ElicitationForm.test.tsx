/**
 * An MCP server's elicitation in the answer box: the schema's fields by type (text,
 * number, boolean, a choice as a select), required marks, titles and descriptions;
 * checked before sending with the shared validator; the answer sent as the runtime
 * expects (the JSON of an ElicitAnswer); the host's `invalid_input` refusal shown next to
 * the fields it names; Decline and Cancel.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppApiError } from '@shared/ipc';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

const schema = {
  type: 'object',
  properties: {
    name: { title: 'Full name', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Agree', type: 'boolean' },
    email: { type: 'string', format: 'email' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    friend: { type: 'string', enum: ['Monica', 'Rachel', 'Joey'] },
  },
  required: ['name'],
};

async function openForm() {
  const api = createMemoryApi();
  await renderApp(api);
  const script = new RunScript('elicit').start('t');
  script.emit({
    type: 'human.requested',
    toolCallId: 'call_1',
    question: 'everything asks: Please provide inputs',
    form: { server: 'everything', message: 'Please provide inputs', schema },
  });
  act(() => api.push(script.events));
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  const form = screen.getByTestId('elicit-form');
  const field = (name: string) =>
    within(form)
      .getAllByTestId('elicit-field')
      .find((el) => el.getAttribute('data-field') === name)!;
  const answers = () =>
    api.calls.filter((c) => c.method === 'answerHuman').map((c) => c.input as { answer: string });
  return { api, form, field, answers };
}

describe('elicitation form', () => {
  it('renders the schema as typed fields, with required marks, titles and descriptions', async () => {
    const { form, field } = await openForm();
    expect(form.getAttribute('data-server')).toBe('everything');
    expect(screen.getByTestId('human-question').textContent).toContain('Please provide inputs');
    // no free-text JSON box for a form
    expect(screen.queryByTestId('human-answer-input')).toBeNull();
    expect(field('name').getAttribute('type')).toBe('text');
    expect(field('check').getAttribute('type')).toBe('checkbox');
    expect(field('email').getAttribute('type')).toBe('email');
    expect(field('integer').getAttribute('type')).toBe('number');
    expect((field('integer') as HTMLInputElement).value).toBe('42');
    expect(field('friend').tagName).toBe('SELECT');
    expect(within(field('friend') as HTMLElement).getAllByRole('option')).toHaveLength(4);
    expect(
      within(form)
        .getByLabelText(/Full name/)
        .getAttribute('data-field'),
    ).toBe('name');
    expect(form.textContent).toContain('Your full, legal name');
    expect(form.querySelectorAll('.required-mark')).toHaveLength(1);
    expect(field('name').getAttribute('aria-required')).toBe('true');
  });

  it('checks the fields before sending, then sends the accepted content as JSON', async () => {
    const { field, answers } = await openForm();
    fireEvent.change(field('integer'), { target: { value: '500' } });
    await act(async () => fireEvent.click(screen.getByTestId('elicit-accept')));
    // nothing sent: the shared validator refused a missing name and an out-of-range integer
    expect(answers()).toEqual([]);
    const errors = screen.getAllByTestId('elicit-field-error');
    expect(errors.map((e) => [e.getAttribute('data-field'), e.textContent])).toEqual([
      ['name', 'Full name is required'],
      ['integer', 'Integer must be at most 100'],
    ]);

    fireEvent.change(field('name'), { target: { value: 'Ada Lovelace' } });
    fireEvent.change(field('integer'), { target: { value: '7' } });
    fireEvent.click(field('check'));
    fireEvent.change(field('friend'), { target: { value: 'Joey' } });
    await act(async () => fireEvent.click(screen.getByTestId('elicit-accept')));
    expect(answers()).toHaveLength(1);
    expect(JSON.parse(answers()[0]!.answer)).toEqual({
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true, integer: 7, friend: 'Joey' },
    });
  });

  it("shows the host's invalid_input refusal next to the fields it names", async () => {
    const { api, field } = await openForm();
    api.override('answerHuman', async () => {
      throw new AppApiError({
        code: 'invalid_input',
        message: 'The form is not valid: email must be an email address; other is odd.',
      });
    });
    fireEvent.change(field('name'), { target: { value: 'Ada' } });
    await act(async () => fireEvent.click(screen.getByTestId('elicit-accept')));
    const errors = screen.getAllByTestId('elicit-field-error');
    expect(errors.map((e) => e.getAttribute('data-field'))).toEqual(['email']);
    expect(errors[0]!.textContent).toContain('must be an email address');
    expect(screen.getByTestId('elicit-form').textContent).toContain('other is odd');
  });

  it('declines and cancels without checking the fields', async () => {
    const { answers } = await openForm();
    await act(async () => fireEvent.click(screen.getByTestId('elicit-decline')));
    await act(async () => fireEvent.click(screen.getByTestId('elicit-cancel')));
    expect(answers().map((a) => JSON.parse(a.answer))).toEqual([
      { action: 'decline' },
      { action: 'cancel' },
    ]);
  });
});
