/**
 * How much each agent needs the sandbox, read by the pre-flight (a missing engine or
 * image is an error or a warning) and by the agent's sandbox tools (what a sandbox that
 * cannot start does to a run: tools/sandbox/sandbox-outage.ts). One table, so the two
 * never disagree: swe has nothing but sandbox tools; Manus has the browser, ask_human
 * and MCP tools too; the others have no sandbox tools.
 */
import type { AgentName } from '@shared/domain/agent';
import type { SandboxNeed } from '../tools/sandbox/sandbox-outage';

export const SANDBOX_NEED = {
  swe: 'required',
  manus: 'optional',
  browser: 'none',
  mcp: 'none',
  toolcall: 'none',
} as const satisfies Record<AgentName, SandboxNeed | 'none'>;
