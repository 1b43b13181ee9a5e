/**
 * `ask_human` in a terminal: when stdin and stderr are a TTY, questions are asked on
 * stderr (stdout stays the event stream under --jsonl) and the typed line is the
 * answer; an MCP server's form (elicitation) is asked field by field (form-prompt.ts).
 * Without a TTY nothing is attached, so the tool fails at once with a clear
 * reason instead of waiting for input that can never come.
 */
import { createInterface } from 'node:readline';
import type { HumanBroker, HumanQuestion } from '../runtime/tools/human-broker';
import { terminalSafe } from './terminal-text';
import { askForm } from './form-prompt';

export function attachTerminalPrompt(
  broker: HumanBroker,
  io: { input: NodeJS.ReadStream; output: NodeJS.WriteStream } = {
    input: process.stdin,
    output: process.stderr,
  },
): () => void {
  if (!io.input.isTTY || !io.output.isTTY) return () => {};
  const queue: HumanQuestion[] = [];
  let isAsking = false;
  let rl: ReturnType<typeof createInterface> | null = null;

  const next = () => {
    const question = queue.shift();
    if (!question) {
      isAsking = false;
      rl?.close();
      rl = null;
      return;
    }
    isAsking = true;
    if (!rl) {
      rl = createInterface({ input: io.input, output: io.output, terminal: true });
      // readline swallows Ctrl-C while it reads; pass it on so the run stops as usual.
      rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    }
    if (question.form) {
      const reader = rl;
      void askForm(
        question.form,
        (prompt) => new Promise((done) => reader.question(prompt, done)),
        io.output,
      )
        .then((answer) => {
          const outcome = broker.answer(
            question.runId,
            question.toolCallId,
            JSON.stringify(answer),
          );
          if (typeof outcome === 'object') io.output.write(`  ${terminalSafe(outcome.invalid)}\n`);
        })
        .finally(next);
      return;
    }
    rl.question(`\n? The agent asks: ${terminalSafe(question.question)}\n> `, (answer) => {
      broker.answer(question.runId, question.toolCallId, answer);
      next();
    });
  };

  const detach = broker.attach({
    name: 'terminal',
    onQuestion(question) {
      queue.push(question);
      if (!isAsking) next();
    },
  });
  return () => {
    detach();
    rl?.close();
    rl = null;
  };
}
