/**
 * `workbench` CLI entry (DESIGN section 3). Dispatches to one module per command; every
 * command returns its exit code. `--jsonl` output goes to stdout, everything else to
 * stderr, so the event stream can be piped.
 */
import { setFlagsFromString } from 'node:v8';
import { helpText, isHelpTopic, USAGE } from './usage';
import { terminalSafe } from './terminal-text';
import { EXIT, HelpRequested, UsageError } from './usage-error';

// A CLI run is one agent at a time, mostly waiting for the model: trade a little garbage
// collector time for memory. Without it V8 lets the heap grow with garbage between
// collections: a 1,000-step run peaked at ~135 MiB, with it ~105 MiB, for the same
// ~16 MiB live after a collection (measured with bench/startup.bench.ts; issue 16 item 7).
// V8 reads this flag while the heap grows, so setting it at start takes effect.
setFlagsFromString('--optimize-for-size');

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(USAGE);
    return command === undefined ? EXIT.usage : EXIT.finished;
  }
  if (command === 'help') {
    // `workbench help runs diff`: that command's help; an unknown topic is bad usage
    const topic = rest.join(' ');
    if (topic === '') process.stdout.write(USAGE);
    else if (isHelpTopic(topic)) process.stdout.write(helpText(topic));
    else throw new UsageError(`no help for "${topic}" (try: workbench --help)`);
    return EXIT.finished;
  }
  switch (command) {
    // Each command loads only what it needs: `runs list` should not wait for the
    // model client, the sandbox and the browser to load.
    case 'run':
      return (await import('./commands/run')).runCommand(rest);
    case 'serve':
      return (await import('./commands/serve')).serveCommand(rest);
    case 'batch':
      return (await import('./commands/batch')).batchCommand(rest);
    case 'experiment':
      return (await import('./commands/experiment')).experimentCommand(rest);
    case 'dataset':
      return (await import('./commands/dataset')).datasetCommand(rest);
    case 'runs':
      return (await import('./commands/runs')).runsCommand(rest);
    case 'config':
      return (await import('./commands/config')).configCommand(rest);
    case 'agents':
      return (await import('./commands/agents')).agentsCommand(rest);
    case 'gateway':
      return (await import('./commands/gateway')).gatewayCommand(rest);
    case 'mcp-sandbox':
      return (await import('./commands/mcp-sandbox')).mcpSandboxCommand(rest);
    default:
      throw new UsageError(`unknown command "${command}" (try: workbench --help)`);
  }
}

// `workbench run --jsonl | head` closes stdout early: that is not an error worth a trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // `-h` / `--help` after any command: its help on stdout, exit 0
    if (error instanceof HelpRequested) {
      process.stdout.write(helpText(error.topic));
      process.exitCode = EXIT.finished;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`workbench: ${terminalSafe(error.message)}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(
      `workbench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = EXIT.error;
  },
);
