import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TEST_IDS } from '../../../test-ids';
import { headerEdits, headerRowsOf, McpHeaderFields, type HeaderRow } from './McpHeaderFields';
import { serverFromDraft } from './McpSettings';

function Harness({ initial, seen }: { initial: HeaderRow[]; seen: HeaderRow[][] }) {
  const [rows, setRows] = useState(initial);
  return (
    <McpHeaderFields
      rows={rows}
      onChange={(next) => {
        seen.push(next);
        setRows(next);
      }}
    />
  );
}

describe('Settings → MCP headers', () => {
  it('shows a saved header as set without its value; typing replaces it, empty keeps it', () => {
    const seen: HeaderRow[][] = [];
    render(
      <Harness
        initial={headerRowsOf([
          { name: 'X-Api-Key', isSet: true },
          { name: 'Authorization', isSet: false, env: 'MY_TOKEN' },
        ])}
        seen={seen}
      />,
    );
    const values = screen.getAllByTestId(`${TEST_IDS.mcpHeaderRow}-value`) as HTMLInputElement[];
    expect(values.map((v) => [v.type, v.value, v.placeholder])).toEqual([
      ['password', '', 'set (type to replace)'],
      ['password', '', 'read from env:MY_TOKEN (type to replace)'],
    ]);
    expect(headerEdits(seen.at(-1) ?? headerRowsOf([{ name: 'X-Api-Key', isSet: true }]))).toEqual({
      headers: { 'X-Api-Key': { action: 'keep' } },
    });
    fireEvent.change(values[0]!, { target: { value: 'new-secret' } });
    fireEvent.click(screen.getByTestId(TEST_IDS.mcpHeaderAdd));
    const names = screen.getAllByTestId(`${TEST_IDS.mcpHeaderRow}-name`) as HTMLInputElement[];
    fireEvent.change(names[2]!, { target: { value: 'X-Team' } });
    const after = screen.getAllByTestId(`${TEST_IDS.mcpHeaderRow}-value`) as HTMLInputElement[];
    fireEvent.change(after[2]!, { target: { value: 'env:TEAM_ID' } });
    expect(headerEdits(seen.at(-1)!)).toEqual({
      headers: {
        'X-Api-Key': { action: 'set', value: 'new-secret' },
        Authorization: { action: 'keep' },
        'X-Team': { action: 'env', name: 'TEAM_ID' },
      },
    });
  });

  it('refuses names the transport owns or that are not tokens, and a new header without a value', () => {
    const draft = {
      name: 'api',
      type: 'http' as const,
      command: '',
      args: '',
      url: 'http://127.0.0.1:1/mcp',
      env: '',
      timeout: '',
    };
    expect(
      serverFromDraft({
        ...draft,
        headers: [{ name: 'Mcp-Session-Id', value: 'x', isSaved: false }],
      }),
    ).toEqual({
      error: 'Header "Mcp-Session-Id" is set by the MCP transport itself and cannot be configured',
    });
    expect(
      serverFromDraft({ ...draft, headers: [{ name: 'X Key', value: 'x', isSaved: false }] }),
    ).toMatchObject({ error: expect.stringMatching(/"X Key" is not a valid HTTP header name/) });
    expect(
      serverFromDraft({ ...draft, headers: [{ name: 'X-Key', value: '', isSaved: false }] }),
    ).toEqual({ error: 'Header "X-Key" needs a value' });
    expect(
      serverFromDraft({ ...draft, headers: [{ name: 'X-Key', value: 'v', isSaved: false }] }),
    ).toEqual({
      server: {
        type: 'http',
        url: 'http://127.0.0.1:1/mcp',
        headers: { 'X-Key': { action: 'set', value: 'v' } },
      },
    });
  });
});
