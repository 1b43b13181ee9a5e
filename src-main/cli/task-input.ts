/**
 * Where `workbench run` gets its task: the positional words, `--prompt TEXT` (as
 * OpenManus users type it: `python main.py --prompt "..."`), or `-` to read it from
 * stdin (`echo task | workbench run -`). One source only; an empty task is bad usage.
 * Other sources (a `file:` prefix) belong next to these.
 */
import { UsageError } from './usage-error';

/** A task larger than this is almost certainly the wrong file piped in. */
export const MAX_TASK_BYTES = 1024 * 1024;

export interface TaskInputStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

export interface TaskSources {
  positionals: string[];
  prompt?: string | undefined;
  stdin: TaskInputStream;
  /** says on a terminal that the task is read until Ctrl-D */
  hint?: (message: string) => void;
}

export async function readTask(sources: TaskSources): Promise<string> {
  const { positionals, prompt } = sources;
  const isStdin = positionals.length === 1 && positionals[0] === '-';
  if (prompt !== undefined && positionals.length > 0) {
    throw new UsageError('give the task once: either --prompt TEXT or TASK, not both');
  }
  let task: string;
  if (prompt !== undefined) task = prompt;
  else if (isStdin) task = await readStdin(sources);
  else {
    if (positionals.includes('-')) {
      throw new UsageError('"-" reads the task from stdin and must be the only TASK argument');
    }
    task = positionals.join(' ');
  }
  task = task.trim();
  if (!task) {
    throw new UsageError(
      isStdin
        ? 'the task read from stdin is empty (e.g. echo "list the files" | workbench run -)'
        : 'run needs a TASK (e.g. workbench run "list the files", --prompt TEXT, or - for stdin)',
    );
  }
  return task;
}

async function readStdin(sources: TaskSources): Promise<string> {
  if (sources.stdin.isTTY) sources.hint?.('Type the task, then press Ctrl-D on a new line.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of sources.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_TASK_BYTES) {
      throw new UsageError(`the task on stdin is over ${MAX_TASK_BYTES / 1024 / 1024} MB`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
