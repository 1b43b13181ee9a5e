/**
 * Unsaved Settings edits are not dropped without asking (issue 25 item 11): another
 * page waits for "Keep editing" or "Discard and leave", and a reload is asked about.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configView } from '../../testing/config-fixture';
import { createMemoryApi } from '../../testing/memory-api';
import { renderApp } from '../../testing/render-app';

const reloadIsHeld = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('unsaved Settings edits', () => {
  it('holds back another page and a reload until the user keeps or discards them', async () => {
    const { store } = await renderApp(createMemoryApi({ config: configView() }));
    await act(async () => fireEvent.click(screen.getByTestId('nav-config')));
    fireEvent.click(screen.getByTestId('config-tab-swe'));
    expect(reloadIsHeld()).toBe(false);
    fireEvent.change(screen.getByTestId('config-field-swe-temperature'), {
      target: { value: '0.3' },
    });
    expect(reloadIsHeld()).toBe(true);

    // another agent's page keeps the draft: no question
    fireEvent.click(screen.getByTestId('config-tab-manus'));
    expect(screen.queryByTestId('settings-unsaved')).toBeNull();

    await act(async () => fireEvent.click(screen.getByTestId('nav-batch')));
    expect(store.getState().view).toBe('config');
    expect(screen.getByTestId('settings-unsaved').textContent).toContain('unsaved changes');
    await act(async () => fireEvent.click(screen.getByText('Keep editing')));
    expect(screen.queryByTestId('settings-unsaved')).toBeNull();
    expect(store.getState().drafts.swe).toBeDefined();

    await act(async () => fireEvent.click(screen.getByTestId('nav-batch')));
    await act(async () => fireEvent.click(screen.getByTestId('settings-discard-leave')));
    expect(store.getState().view).toBe('batch');
    expect(store.getState().drafts.swe).toBeUndefined();
    expect(reloadIsHeld()).toBe(false);

    // leaving while Save is on its way is no loss: no question
    await act(async () => fireEvent.click(screen.getByTestId('nav-config')));
    fireEvent.click(screen.getByTestId('config-tab-swe'));
    fireEvent.change(screen.getByTestId('config-field-swe-max_steps'), { target: { value: '9' } });
    store.getState().setSaveOp('swe', { status: 'running' });
    await act(async () => fireEvent.click(screen.getByTestId('nav-batch')));
    expect(store.getState().view).toBe('batch');
  });

  it('asks before leaving a Sandbox page with edits, and says where a new MCP server reaches', async () => {
    const { store } = await renderApp(createMemoryApi({ config: configView() }));
    await act(async () => fireEvent.click(screen.getByTestId('nav-config')));
    await act(async () => fireEvent.click(screen.getByTestId('settings-tab-mcp')));
    fireEvent.change(screen.getByTestId('mcp-field-name'), { target: { value: 'calc' } });
    fireEvent.change(screen.getByTestId('mcp-field-command'), { target: { value: 'calc-server' } });
    expect(screen.getByTestId('mcp-reach').textContent).toBe(
      "Once added: Manus (and PlanningFlow's Manus steps) will get all its tools in every run, named mcp_calc_TOOL; the mcp agent will use all its tools. Test lists its tools.",
    );
    await act(async () => fireEvent.click(screen.getByTestId('settings-tab-sandbox')));
    expect(store.getState().settingsSection).toBe('mcp');
    expect(screen.getByTestId('settings-unsaved')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('settings-discard-leave')));
    expect(store.getState().settingsSection).toBe('sandbox');
    expect(reloadIsHeld()).toBe(false);
  });
});
