import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HumanBroker, HumanUnavailableError } from '../runtime/tools/human-broker';
import { attachTerminalPrompt } from './human-prompt';

function tty(isTTY: boolean) {
  const input = Object.assign(new PassThrough(), { isTTY }) as unknown as NodeJS.ReadStream;
  const output = Object.assign(new PassThrough(), {
    isTTY,
    columns: 80,
  }) as unknown as NodeJS.WriteStream;
  let written = '';
  (output as unknown as PassThrough).on('data', (d: Buffer) => (written += d.toString()));
  return { input, output, written: () => written };
}

const ask = (broker: HumanBroker, toolCallId: string, question: string) =>
  broker.ask({
    runId: 'r1',
    toolCallId,
    question,
    signal: new AbortController().signal,
    emit: () => {},
  });

describe('ask_human in a terminal', () => {
  it('asks on the terminal and answers with the typed line, one question at a time', async () => {
    const broker = new HumanBroker();
    const io = tty(true);
    const detach = attachTerminalPrompt(broker, io);
    const first = ask(broker, 'c1', 'Which file?');
    const second = ask(broker, 'c2', 'Which line?');
    await new Promise((r) => setTimeout(r, 10));
    expect(io.written()).toContain('The agent asks: Which file?');
    expect(io.written()).not.toContain('Which line?');
    (io.input as unknown as PassThrough).write('main.py\n');
    await expect(first).resolves.toBe('main.py');
    await new Promise((r) => setTimeout(r, 10));
    expect(io.written()).toContain('The agent asks: Which line?');
    (io.input as unknown as PassThrough).write('42\n');
    await expect(second).resolves.toBe('42');
    detach();
  });

  it('attaches nothing without a TTY, so the question fails at once with the reason', async () => {
    const broker = new HumanBroker();
    attachTerminalPrompt(broker, tty(false));
    await expect(ask(broker, 'c1', 'Anyone?')).rejects.toBeInstanceOf(HumanUnavailableError);
  });
});
