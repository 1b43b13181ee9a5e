/**
 * End to end through the runtime with the scripted model and the agents' real tools in
 * the real sandbox (issue 7): Manus writes and runs a Python file and reads the result
 * back; SWE edits a file with str_replace_editor and runs it with bash; PlanningFlow runs
 * a plan across two executors that share the session's sandbox, blocks a failing step,
 * replans, and finishes early when an executor says the task is done.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { Message } from '@shared/domain/message';
import type { ChatRequest } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';

const docker = await probeDocker();
const execFileAsync = promisify(execFile);
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

type Router = (request: ChatRequest) => ScriptedReply;

function startRuntime(router: Router, sandboxExtra = ''): { runtime: Runtime; events: RunEvent[] } {
  const home = mkdtempSync(join(tmpdir(), 'wb-agents-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "scripted"\napi_key = "sk-test-agents"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n${sandboxExtra}`,
  );
  const runtime = createRuntime({
    home,
    createLlm: () => new ScriptedLlm((request) => router(request)),
  });
  runtimes.push(runtime);
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  return { runtime, events };
}

/** Tool results the agent has seen since its (step) task, oldest first. */
function toolResults(request: ChatRequest): Message[] {
  return request.messages.filter((m) => m.role === 'tool');
}

const call = (name: string, args: unknown): ScriptedReply => ({ toolCalls: [{ name, args }] });

function toolOutputs(events: RunEvent[], name: string): string[] {
  return events.flatMap((e) =>
    e.type === 'tool.finished' && e.name === name ? [`${e.output}${e.error ?? ''}`] : [],
  );
}

function workspaceOf(runtime: Runtime, events: RunEvent[]): string {
  const started = events.find((e) => e.type === 'run.started');
  if (started?.type !== 'run.started') throw new Error('no run.started');
  return runtime.services.sessions.open(started.sessionId).workspaceDir;
}

describe.skipIf(!docker.available)('agents with their real tools in the sandbox', () => {
  it('Manus writes a Python file, runs it, and reads the result back', async () => {
    const script = [
      call('str_replace_editor', {
        command: 'create',
        path: '/workspace/fib.py',
        file_text:
          'a, b = 0, 1\nfor _ in range(30):\n    a, b = b, a + b\nopen("/workspace/result.txt", "w").write(str(a))\nprint("fib(30) =", a)\n',
      }),
      call('python_execute', { code: "import runpy\nrunpy.run_path('/workspace/fib.py')" }),
      call('str_replace_editor', { command: 'view', path: '/workspace/result.txt' }),
      call('terminate', { status: 'success' }),
    ];
    const { runtime, events } = startRuntime((request) => script[toolResults(request).length]!);
    const result = await runtime.runs.start({ task: 'compute fib(30) in Python', agent: 'manus' })
      .done;

    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(toolOutputs(events, 'python_execute').join()).toContain('fib(30) = 832040');
    expect(toolOutputs(events, 'str_replace_editor')[1]).toMatch(/1\s+832040/);
    expect(readFileSync(join(workspaceOf(runtime, events), 'result.txt'), 'utf8')).toBe('832040');
  });

  it('SWE edits a file with str_replace_editor and runs it with bash', async () => {
    const script = [
      call('bash', {
        command: `printf 'def greet():\\n    return "hello"\\nprint(greet())\\n' > app.py && python3 app.py`,
      }),
      call('str_replace_editor', {
        command: 'str_replace',
        path: '/workspace/app.py',
        old_str: 'return "hello"',
        new_str: 'return "hello, sandbox"',
      }),
      call('bash', { command: 'python3 app.py' }),
      call('terminate', { status: 'success' }),
    ];
    const { runtime, events } = startRuntime((request) => script[toolResults(request).length]!);
    const result = await runtime.runs.start({
      task: 'make greet() say hello, sandbox',
      agent: 'swe',
    }).done;

    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    const outputs = toolOutputs(events, 'bash');
    expect(outputs[0]).toContain('hello');
    expect(outputs[1]).toContain('hello, sandbox');
    expect(readFileSync(join(workspaceOf(runtime, events), 'app.py'), 'utf8')).toContain(
      'hello, sandbox',
    );
  });

  it('fixes openmanus 7.1(f): the sandbox outlives a run; the next run of the session uses the same container and files', async () => {
    let run = 0;
    const { runtime, events } = startRuntime((request) => {
      const done = toolResults(request).length;
      if (done > 0) return call('terminate', { status: 'success' });
      return run === 1
        ? call('python_execute', { code: "open('/workspace/kept.txt', 'w').write('from run 1')" })
        : call('bash', { command: 'cat /workspace/kept.txt' });
    });
    const containers = () =>
      new Set(
        events.flatMap((e) =>
          e.type === 'sandbox.changed' && e.containerId ? [e.containerId] : [],
        ),
      );
    run = 1;
    expect((await runtime.runs.start({ task: 'write', agent: 'manus' }).done).outcome).toBe(
      'finished',
    );
    const [first] = [...containers()];
    expect(first).toBeDefined();
    // Still there after the run ended (the original removed it after every run).
    const { stdout } = await execFileAsync('docker', [
      'inspect',
      '-f',
      '{{.State.Running}}',
      first!,
    ]);
    expect(stdout.trim()).toBe('true');
    run = 2;
    expect((await runtime.runs.start({ task: 'read', agent: 'manus' }).done).outcome).toBe(
      'finished',
    );
    expect([...containers()]).toEqual([first]);
    expect(toolOutputs(events, 'bash').join()).toContain('from run 1');
  });

  it('S7: three sandbox commands in a row that time out end the run, and leave no process behind', async () => {
    const { runtime, events } = startRuntime(() =>
      call('bash', { command: 'sleep 600', timeout: 1 }),
    );
    const started = Date.now();
    const result = await runtime.runs.start({ task: 'wait forever', agent: 'swe' }).done;
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/3 tool calls in a row timed out/);
    expect(Date.now() - started).toBeLessThan(20_000);
    const container = events.find((e) => e.type === 'sandbox.changed' && e.containerId);
    const id = container?.type === 'sandbox.changed' ? container.containerId : undefined;
    expect(id).toBeDefined();
    const { stdout } = await execFileAsync('docker', ['exec', id!, 'ps', '-eo', 'args']);
    expect(stdout).not.toMatch(/sleep 600/);
  });

  it('S4: a workspace that outgrows workspace_limit stops the command and ends the run within seconds', async () => {
    // 200 files of 1 MiB, one every 50 ms (~10 s in all), against a 20 MiB limit.
    const writer =
      'for i in $(seq 1 200); do head -c 1048576 /dev/zero > /workspace/blob-$i; sleep 0.05; done; echo wrote all';
    const { runtime, events } = startRuntime(
      () => call('bash', { command: writer, timeout: 60 }),
      'workspace_limit = "20m"\n',
    );
    const started = Date.now();
    const result = await runtime.runs.start({ task: 'fill the disk', agent: 'swe' }).done;
    const elapsed = Date.now() - started;
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/over \[sandbox\] workspace_limit = "20m"/);
    // Past the limit after ~1 s of writing; stopped within the next checks, not after 10 s.
    expect(elapsed).toBeLessThan(8_000);
    const blobs = readdirSync(workspaceOf(runtime, events)).filter((f) => f.startsWith('blob-'));
    expect(blobs.length).toBeGreaterThan(20);
    expect(blobs.length).toBeLessThan(120);
    expect(toolOutputs(events, 'bash').join()).not.toContain('wrote all');
  });

  it('PlanningFlow: two executors share the sandbox, a failing step is blocked, the plan is revised, and the flow finishes early', async () => {
    let plannerCalls = 0;
    const router: Router = (request) => {
      const system = request.messages[0]?.content ?? '';
      if (system.includes('planning assistant')) {
        plannerCalls++;
        if (plannerCalls === 1) {
          return call('planning', {
            command: 'create',
            title: 'Sum the numbers',
            steps: [
              '[manus] write numbers.txt',
              '[swe] sum them with the missing tool',
              '[manus] report the sum',
            ],
          });
        }
        if (plannerCalls === 2) {
          return call('planning', {
            command: 'update',
            steps: [
              '[manus] write numbers.txt',
              '[swe] sum them with the missing tool',
              '[swe] sum them with awk',
              '[manus] report the sum',
            ],
          });
        }
        return { content: 'The sum is 6; the missing tool was replaced by awk.' };
      }
      const step = /YOUR CURRENT TASK: step (\d+)/.exec(
        request.messages.find((m) => m.role === 'user')?.content ?? '',
      )?.[1];
      const done = toolResults(request).length;
      if (step === '0') {
        return done === 0
          ? call('python_execute', {
              code: "open('/workspace/numbers.txt', 'w').write('1\\n2\\n3\\n')",
            })
          : call('terminate', { status: 'success' });
      }
      if (step === '1') return call('terminate', { status: 'failure' });
      if (step === '2') {
        return done === 0
          ? call('bash', { command: "awk '{ s += $1 } END { print s }' numbers.txt" })
          : call('finish_plan', { summary: 'the sum is 6, nothing left to do' });
      }
      throw new Error(`unexpected request for step ${step}`);
    };
    const { runtime, events } = startRuntime(router);
    const result = await runtime.runs.start({
      task: 'sum 1, 2 and 3',
      agent: 'manus',
      flow: 'planning',
    }).done;

    expect(result.outcome).toBe('finished');
    expect(result.terminateStatus).toBe('failure'); // step 1 stayed blocked
    // The file manus wrote in step 0 is there for swe in step 2: one sandbox per session.
    expect(toolOutputs(events, 'bash').join()).toMatch(/\b6\b/);
    const plans = events.filter((e) => e.type === 'plan.updated');
    const last = plans.at(-1);
    expect(last?.type === 'plan.updated' && last.steps.map((s) => s.status)).toEqual([
      'completed',
      'blocked',
      'completed',
      'completed',
    ]);
    expect(last?.type === 'plan.updated' && last.steps[3]?.notes).toMatch(/finished early/);
    const started = events.find((e) => e.type === 'run.started');
    expect(started).toMatchObject({ agent: 'planning', flow: 'planning' });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    const steps = events.flatMap((e) => (e.type === 'step.started' ? [e.step] : []));
    expect(steps).toEqual(steps.map((_, i) => i + 1));
  });
});
