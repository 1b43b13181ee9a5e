/**
 * A client process for the flood tests, run as the CLI runs an agent: it loads the tools
 * of the flooding server, follows its tool list, calls `flood` (which times out), closes
 * the session and prints `CLOSED <ms the close took>`. It never calls process.exit: the test measures how long
 * the process lingers after the close (handles left open keep it alive), and reads the
 * warnings it printed on stderr.
 *   node --import tsx flood-client.ts WORKSPACE TIMEOUT_S FLOOD_JSON
 */
import { Session } from '../../../session/session';
import { ToolRegistry } from '../../tool-registry';
import { loadMcpTools } from '../mcp-toolset';
import { floodStdioSettings } from './flood-mcp-process';

const [workspace = '.', timeout = '2', flood = '{}'] = process.argv.slice(2);
const session = new Session('flood-client', workspace);
const toolset = await loadMcpTools({
  session,
  servers: { f: floodStdioSettings({ timeout: Number(timeout) }) },
});
const registry = new ToolRegistry(toolset.tools);
const stop = toolset.follow(registry);
const tool = registry.get('mcp_f_flood');
if (!tool) throw new Error(`no flood tool in ${registry.names.join(', ')}`);
const started = performance.now();
const result = await tool.execute(JSON.parse(flood) as Record<string, unknown>, {
  signal: new AbortController().signal,
  runId: 'flood',
  agent: 'mcp',
  step: 1,
  toolCallId: 'c1',
  emit: () => undefined,
});
const elapsedMs = Math.round(performance.now() - started);
process.stdout.write(`RESULT ${JSON.stringify({ elapsedMs, error: result.error ?? null })}\n`);
const closing = performance.now();
stop();
await session.close();
process.stdout.write(`CLOSED ${Math.round(performance.now() - closing)}\n`);
