/**
 * Calling a tool that requires task-based execution (MCP tasks, `execution.taskSupport:
 * "required"`): a plain `tools/call` is refused for those, so they were offered to the
 * model but could never run (issue 16 item 4). The call creates a task, polls its status
 * (each new status message is reported as progress), and fetches the result when it is
 * done. A stop cancels the task on the server (`tasks/cancel`); a task whose status does
 * not change for the server's `timeout` fails as timed out, and is cancelled too.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { abortableSleep } from '../../util/abort';
import type { McpCallResult } from './mcp-content';

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface TaskCallOptions {
  signal: AbortSignal;
  /** ms a task may go without a status change */
  timeoutMs: number;
  onProgress?: (progress: ToolProgress) => void;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const DEFAULT_POLL_MS = 1000;
const MAX_POLL_MS = 5000;
const CANCEL_GRACE_MS = 2000;

export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<McpCallResult> {
  const { signal, timeoutMs } = options;
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CreateTaskResultSchema,
    { signal, timeout: timeoutMs, task: {} },
  );
  const taskId = created.task.taskId;
  let lastStatus = `${created.task.status}|${created.task.statusMessage ?? ''}`;
  let lastChange = Date.now();
  let reports = 0;
  let poll = created.task.pollInterval ?? DEFAULT_POLL_MS;
  try {
    for (;;) {
      await abortableSleep(Math.min(Math.max(poll, 100), MAX_POLL_MS), signal);
      const task = await client.experimental.tasks.getTask(taskId, { signal, timeout: timeoutMs });
      poll = task.pollInterval ?? poll;
      const status = `${task.status}|${task.statusMessage ?? ''}`;
      if (status !== lastStatus) {
        lastStatus = status;
        lastChange = Date.now();
        options.onProgress?.({
          progress: ++reports,
          message: task.statusMessage ? `${task.status}: ${task.statusMessage}` : task.status,
        });
      } else if (Date.now() - lastChange > timeoutMs) {
        throw new McpError(
          ErrorCode.RequestTimeout,
          `task ${taskId} reported nothing new for ${Math.round(timeoutMs / 1000)} s`,
        );
      }
      if (task.status === 'failed' || task.status === 'cancelled') {
        return {
          content: [
            {
              type: 'text',
              text: `The task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}.`,
            },
          ],
          isError: true,
        };
      }
      // input_required: the server waits for the client; tasks/result delivers its request
      if (task.status === 'completed' || task.status === 'input_required') {
        return (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, {
          signal,
          timeout: timeoutMs,
        })) as McpCallResult;
      }
    }
  } catch (error) {
    if (!TERMINAL.has(lastStatus.split('|')[0]!)) await cancelQuietly(client, taskId);
    throw error;
  }
}

/** Asks the server to cancel the task; a stop must not wait long for the answer. */
async function cancelQuietly(client: Client, taskId: string): Promise<void> {
  await client.experimental.tasks
    .cancelTask(taskId, { timeout: CANCEL_GRACE_MS })
    .catch(() => undefined);
}
