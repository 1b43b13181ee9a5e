/**
 * The agent debugger in a terminal (`workbench run --break ...`, `--approve TOOL`,
 * Ctrl-\ to pause): when the run pauses, the proposed calls or the context are listed on
 * stderr and one-letter commands approve, edit, skip or add calls, edit or add
 * messages, type the reply, change the model, set breakpoints, step, continue or stop.
 * Edited text is offered pre-filled on the prompt line, so a small change is a small
 * edit. Every action goes through the run's debugger as the `terminal`, so the history
 * records it like an edit made in the UI.
 */
import { createInterface, type Interface } from 'node:readline';
import type { RunEvent, RunEventOf } from '@shared/events';
import type { ToolCall } from '@shared/domain/message';
import type { RunDebugger } from '../runtime/debug/run-debugger';
import { DebugError } from '../runtime/debug/debug-error';
import type { RunManager } from '../runtime/runs/run-manager';
import { ContextTracker } from './context-tracker';

export interface DebugTerminalIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

const HELP_TOOLS = [
  'a N|all      approve call N (or every call)      e N   edit the arguments of call N',
  's N          skip call N (you write what the model is told)',
  '+ TOOL JSON  add a call                          l     list the calls again',
];
const HELP_MODEL = [
  'l            list the context                    e N   edit message #N',
  'u TEXT       add a user message                  r     type the reply instead of the model',
  'model NAME   switch to profile [llm.NAME]        temp T  set the temperature',
];
const HELP_COMMON = [
  'c            continue                            n     step one cycle',
  'm            step over the model call only       q     stop the run',
  'b SPEC       set a breakpoint (tool:bash, stuck, step:N, tokens:N...)',
  'd ID         clear a breakpoint                  bl    list breakpoints',
];

export function attachDebugTerminal(options: {
  runs: RunManager;
  runId: string;
  io?: DebugTerminalIo;
}): () => void {
  const { runs, runId } = options;
  const io = options.io ?? { input: process.stdin, output: process.stderr };
  const isTerminal = io.input.isTTY === true;
  const context = new ContextTracker();
  let rl: Interface | null = null;
  let isClosed = false;
  const print = (line = '') => io.output.write(`${line}\n`);

  const ask = (prompt: string, prefill = ''): Promise<string> =>
    new Promise((resolve) => {
      if (!rl) {
        rl = createInterface({ input: io.input, output: io.output, terminal: isTerminal });
        // readline swallows Ctrl-C while it reads; pass it on so the run stops as usual.
        rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
      }
      rl.question(prompt, resolve);
      if (prefill && isTerminal) rl.write(prefill);
    });

  async function session(paused: RunEventOf<'run.paused'>, debug: RunDebugger): Promise<void> {
    const calls: ToolCall[] = [...(paused.calls ?? [])];
    const awaiting = new Set(paused.awaitingApproval ?? []);
    const atTools = paused.point === 'before_tools';
    const listCalls = () =>
      calls.forEach((c, i) =>
        print(
          `  [${i + 1}] ${c.function.name} ${c.function.arguments}${awaiting.has(c.id) ? '   (needs approval)' : ''}`,
        ),
      );
    const callAt = (arg: string) => {
      const call = calls[Number(arg) - 1];
      if (!call) throw new DebugError('not_found', `No call ${arg} (calls 1-${calls.length}).`);
      return call;
    };
    // the planner's and a sampling call's pauses hold the call only: nothing to edit
    const isPauseOnly = paused.point === 'planner' || paused.point === 'sampling';
    if (atTools) listCalls();
    const edit = (e: Parameters<RunDebugger['edit']>[0]) => debug.edit(e, 'terminal');
    print(
      `  ${atTools ? 'a/e/s N, + TOOL JSON' : isPauseOnly ? '' : 'l, e N, u TEXT, r, model NAME, temp T'}${isPauseOnly ? '' : ' · '}c continue · n step · m step the model call · q stop · ? help`,
    );
    for (;;) {
      if (isClosed) return;
      const line = (await ask('debug> ')).trim();
      if (isClosed) return;
      const [command = '', ...words] = line.split(/\s+/);
      const arg = words.join(' ');
      try {
        switch (command) {
          case 'c':
          case 'continue':
            debug.resume('continue', 'terminal');
            return;
          case 'n':
          case 'step':
            debug.resume('cycle', 'terminal');
            return;
          case 'm':
            debug.resume('model', 'terminal');
            return;
          case 'q':
          case 'stop':
            runs.stop(runId);
            return;
          case 'a': {
            let resumed = false;
            for (const call of arg === 'all' ? calls : [callAt(arg)]) {
              resumed = edit({ kind: 'approve_call', toolCallId: call.id }).resumed === true;
              awaiting.delete(call.id);
              if (resumed) break; // the last call waiting: the run went on
            }
            print(resumed ? '  approved; nothing left to decide, the run goes on' : '  approved');
            if (resumed) return;
            break;
          }
          case 'e':
            if (atTools) {
              const call = callAt(arg);
              const text = await ask(
                `  arguments of ${call.function.name}> `,
                call.function.arguments,
              );
              edit({ kind: 'edit_call', toolCallId: call.id, arguments: text });
              const at = calls.indexOf(call);
              calls[at] = {
                ...call,
                function: { ...call.function, arguments: JSON.stringify(JSON.parse(text)) },
              };
              awaiting.delete(call.id);
            } else {
              const index = Number(arg);
              const current = context.message(paused.agent, index);
              if (!current) throw new DebugError('not_found', `No message #${arg} (l lists them).`);
              const text = await ask(`  #${index} ${current.role}> `, current.content ?? '');
              edit({ kind: 'edit_message', index, content: text });
            }
            print('  edited');
            break;
          case 's': {
            const call = callAt(arg);
            const observation = await ask(
              '  what the model is told> ',
              'The user skipped this call.',
            );
            const skipped = edit({ kind: 'skip_call', toolCallId: call.id, observation });
            awaiting.delete(call.id);
            if (skipped.resumed) {
              print('  skipped; nothing left to decide, the run goes on');
              return;
            }
            print('  skipped');
            break;
          }
          case '+': {
            const [name = '', ...json] = words;
            const args = json.join(' ') || (await ask(`  arguments of ${name}> `, '{}'));
            const added = edit({ kind: 'add_call', name, arguments: args });
            calls.push({
              id: added.toolCallId ?? '',
              type: 'function',
              function: { name, arguments: args },
            });
            print(`  added call ${calls.length} (${added.toolCallId})`);
            break;
          }
          case 'l':
            if (atTools) listCalls();
            else for (const row of context.list(paused.agent)) print(`  ${row}`);
            break;
          case 'u': {
            const text = arg || (await ask('  user message> '));
            const added = edit({ kind: 'add_message', role: 'user', content: text });
            print(`  added message #${added.index}`);
            break;
          }
          case 'r': {
            const content = await ask('  reply> ');
            const callLine = (await ask('  tool call (TOOL JSON, empty for none)> ')).trim();
            const [name, ...json] = callLine.split(/\s+/);
            edit({
              kind: 'provide_reply',
              content,
              ...(name ? { toolCalls: [{ name, arguments: json.join(' ') || '{}' }] } : {}),
            });
            print('  the reply will be used in place of the model call (c to continue)');
            break;
          }
          case 'model':
            edit({ kind: 'change_model', profile: arg });
            print(`  now using [llm.${arg}]`);
            break;
          case 'temp':
            edit({ kind: 'change_model', temperature: Number(arg) });
            print(`  temperature ${arg}`);
            break;
          case 'b': {
            const bp = debug.setBreakpoint(arg, 'terminal');
            print(`  ${bp.id} ${bp.spec}`);
            break;
          }
          case 'd':
            debug.clearBreakpoint(arg, 'terminal');
            print('  cleared');
            break;
          case 'bl':
            for (const bp of debug.breakpoints) print(`  ${bp.id} ${bp.spec} (${bp.origin})`);
            break;
          case '':
          case '?':
          case 'help':
            for (const row of [...(atTools ? HELP_TOOLS : HELP_MODEL), ...HELP_COMMON])
              print(`  ${row}`);
            break;
          default:
            print(`  unknown command "${command}" (? for help)`);
        }
      } catch (error) {
        if (error instanceof DebugError || error instanceof SyntaxError)
          print(`  ✗ ${error.message}`);
        else throw error;
      }
    }
  }

  let queue = Promise.resolve();
  const stop = runs.onEvent((event: RunEvent) => {
    if (event.runId !== runId) return;
    context.observe(event);
    if (event.type === 'run.finished') close();
    if (event.type !== 'run.paused') return;
    const debug = runs.debugger(runId);
    if (!debug) return;
    queue = queue
      .then(() => session(event, debug))
      .catch((error: unknown) => {
        print(`workbench: the debugger prompt failed: ${(error as Error).message}`);
      })
      // The terminal is free again between pauses (ask_human may need it).
      .finally(() => {
        rl?.close();
        rl = null;
      });
  });
  function close() {
    isClosed = true;
    rl?.close();
    rl = null;
  }
  return () => {
    stop();
    close();
  };
}
