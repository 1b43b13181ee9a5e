import { describe, expect, it } from 'vitest';
import { mcpReach } from './mcp-reach';

describe('mcpReach', () => {
  it('says which agents get a new server and how many tools when a test counted them', () => {
    expect(mcpReach('calc', [], null, 14)).toBe(
      "Manus (and PlanningFlow's Manus steps) will get its 14 tools in every run, named mcp_calc_TOOL; the mcp agent will use its 14 tools.",
    );
    expect(mcpReach('calc', ['files'], 'files')).toContain(
      'the mcp agent keeps using files ([mcp] agent_server)',
    );
    expect(mcpReach('calc', ['files'], null, 1)).toContain(
      'will get its 1 tool in every run, named mcp_calc_TOOL; the mcp agent will need [mcp] agent_server to choose among files, calc.',
    );
  });
});
