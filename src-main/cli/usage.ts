/**
 * The CLI's help: one entry per command and subcommand, so `workbench --help` lists them
 * all and `workbench runs diff --help` (or `-h`, or `workbench help runs diff`) prints
 * only that one, from the same text.
 */

/** Each command and subcommand that has its own help. */
export const HELP_TOPICS = [
  'run',
  'batch',
  'experiment',
  'dataset',
  'runs list',
  'runs show',
  'runs export',
  'runs import',
  'runs rename',
  'runs delete',
  'runs diff',
  'runs patch',
  'runs fork',
  'runs resume',
  'runs continue',
  'agents list',
  'agents show',
  'agents new',
  'agents export',
  'config show',
  'config import-openmanus',
  'config test',
  'serve',
  'gateway',
  'mcp-sandbox',
] as const;

/** A command (`run`), a subcommand (`runs diff`) or a group of them (`runs`). */
export type HelpTopic = (typeof HELP_TOPICS)[number] | 'runs' | 'config' | 'agents';

const ENTRIES: Record<(typeof HELP_TOPICS)[number], string> = {
  run: `  run [--agent NAME[@VERSION] | FILE.toml] [--flow planning] [-c|--config FILE] [--max-steps N] [--jsonl]
      [--workspace DIR [--isolated]] TASK | file:PATH | -p|--prompt TASK | -
                      run an agent on TASK: progress on stderr, the answer on stdout
                      once the run finished (nothing when it stopped, failed or ran out
                      of steps); file:PATH reads the task from a file, - from stdin;
                      --workspace mounts DIR at /workspace (--isolated: a copy of it)
      [--profile NAME]  the model profile for this run only ([llm.NAME]; default: [llm])
      [--break SPEC]... [--approve TOOL]... [--no-breakpoints]
                      debug it in this terminal: pause at breakpoints (tool:NAME[:PATTERN],
                      stuck, tool_error, model_error, step:N, tokens:N, cost:USD), approve
                      calls of TOOL before they run; Ctrl-\\ pauses; ? at the prompt for help
  run --agent mcp [--connection stdio|sse|http] [--server-url URL | --server-command "CMD ARGS"] TASK
                      the MCP server for this run (as OpenManus's run_mcp.py), else [mcp] in config.toml`,
  batch: `  batch TASKS.jsonl --agent NAME [--profile A]... [--repeat K] [--concurrency N]
      [--check CMD] [--max-steps N] [-c|--config FILE] [--json]
                      run every task (one JSON object a line: task, workspace?, check?)
                      with every profile, K times, N at once; the grid on stdout;
                      exit 0 when every run finished and every check passed
  batch --resume BATCH_ID | batch show BATCH_ID [--json]
                      go on with a stopped or killed batch (finished runs are kept) |
                      show its grid`,
  experiment: `  experiment run FILE.toml [--concurrency N] [-c|--config FILE] [--json]
                      run an experiment (a dataset x variants x repeats, scored; see
                      docs/experiments.md); its report on stdout
  experiment resume ID | experiment show ID [--json] | experiment list [--json]
                      go on with a stopped or killed experiment | its report | all of them
  experiment diff A B [--scorer S] [--variant-a NAME] [--variant-b NAME] [--json]
                      B's variant against A's over the same items; exit 1 when B is
                      significantly worse on a scorer (all of them, or S): a CI gate`,
  dataset: `  dataset check FILE.jsonl [--json]
                      validate a dataset (every problem with its line and key), print its version
  dataset add FILE.jsonl RUN... [--answer]
                      add runs of the history as items: task, starting workspace (copied
                      beside the dataset), with --answer their final answer as the expected one`,
  'runs list': `  runs list [--limit N] [--agent NAME[@VERSION]] [--status VERDICT]... [--batch BATCH_ID] [--json]
                      the runs in the history, newest first: the newest N, only one
                      agent's, only these verdicts (finished, finished_with_errors,
                      agent_failed, max_steps, cancelled, error, interrupted, running;
                      --status a,b or repeated), only one batch's`,
  'runs show': `  runs show RUN [--jsonl]
                      show a run from the history (--jsonl replays its events)`,
  'runs export': `  runs export RUN [-o FILE | --otlp URL]
                      one run as a single .jsonl file (to move it to another machine);
                      --otlp sends it as OpenTelemetry spans to an OTLP/HTTP receiver`,
  'runs import': `  runs import FILE    add an exported run to the history`,
  'runs rename': `  runs rename RUN TITLE
                      name a run in the history`,
  'runs delete': `  runs delete RUN...  delete runs with their sandbox snapshots`,
  'runs diff': `  runs diff A B [C ...] [--json]
                      compare runs step by step (each a RUN, or an exported .jsonl file);
                      exit 0 when equivalent, 1 when they differ, 2 for bad usage`,
  'runs patch': `  runs patch RUN [--from N] [--to M] [-o FILE]
                      what the run did to its files as a unified patch for git apply
                      (binary files included), from its checkpoints: from step N
                      (default 0, where it started) to step M (default the last)`,
  'runs fork': `  runs fork RUN --at STEP [--message TEXT] [--agent NAME[@V]] [--agent-model PROFILE] [--max-steps N]
      [--without-files] [-c|--config FILE] [--jsonl]
                      a new run from step STEP of RUN: its context and its sandbox files
                      restored in a fresh container, TEXT added as a user message`,
  'runs resume': `  runs resume RUN [-c|--config FILE] [--jsonl]
                      continue a run the app was killed in, from its last step`,
  'runs continue': `  runs continue RUN MESSAGE [--max-steps N] [-c|--config FILE] [--jsonl]
                      go on with a finished run: its whole conversation plus MESSAGE, in
                      the same session and workspace, on the profile it used; up to N more
                      steps (default: the agent's max_steps)`,
  'agents list': `  agents list [-c|--config FILE] [--json]
                      the built-in agents and yours (WORKBENCH_HOME/agents/NAME.toml)
                      with their versions; a definition that does not load says why`,
  'agents show': `  agents show NAME[@VERSION] | FILE [-c|--config FILE]
                      a definition's text, its version and hash (docs/agents.md)`,
  'agents new': `  agents new NAME [--from AGENT[@VERSION] | FILE] [--force]
                      write WORKBENCH_HOME/agents/NAME.toml: a copy of AGENT (Duplicate),
                      else a small agent to edit; it is checked and saved as a version`,
  'agents export': `  agents export NAME[@VERSION] [-o FILE]
                      a definition as a TOML file (stdout without -o), built-ins too`,
  'config show': `  config show [--agent NAME] [-c|--config FILE] [--json]
                      the effective settings of each agent and where each comes from`,
  'config import-openmanus': `  config import-openmanus FILE [--dry-run]
                      take over an OpenManus config.toml (says what it left out)`,
  'config test': `  config test [--agent NAME]
                      test the model connection of an agent's profile`,
  serve: `  serve [--host 127.0.0.1] [--port N]
                      serve the workbench UI in a browser (prints the URL to open; its
                      token is new at every start unless WORKBENCH_SERVE_TOKEN sets one;
                      a --host other than loopback is reachable from the network: warned;
                      the sandbox MCP server is at /mcp/sandbox, token as a Bearer header)`,
  gateway: `  gateway [--port N] [--profile NAME] [--idle SECONDS] [--break SPEC]... [--approve TOOL]...
      [--replay RUN [--on-divergence live|fail]] [--fork RUN --at N [--reply FILE]]
                      a recording model gateway on 127.0.0.1 for agents you wrote
                      yourself: give them the printed OPENAI_BASE_URL and OPENAI_API_KEY;
                      each agent's calls become a run (X-Workbench-Run: NAME names it);
                      --replay answers from RUN's recording, --fork replays RUN's steps
                      before N and goes live at N (--reply: step N's reply, JSON
                      {"content", "toolCalls": [{"name", "arguments"}]}); docs/gateway.md`,
  'mcp-sandbox': `  mcp-sandbox [--workspace DIR [--isolated]] [--fork RUN --at STEP] [-c|--config FILE]
                      the sandbox as an MCP server on stdio (bash, python_execute,
                      str_replace_editor, read_file, write_file in a Docker sandbox); the
                      client's calls are recorded as a run; --fork starts from the files
                      of STEP of RUN`,
};

const RUN_REF = 'RUN is a run id, a unique prefix of one, or last (the newest run).';
const OPTIONS = `Options:
  -h, --help          show this help`;
const EXIT_CODES = `Exit codes: 0 finished (also with failed tool calls), 1 error or the agent reported
failure, 2 bad usage or config (pre-flight errors too), 3 max steps reached, 130 stopped.`;
const ENVIRONMENT = `Environment: WORKBENCH_HOME (default ~/.agent-workbench) holds config.toml and runs/.`;

export const USAGE = `Usage: workbench <command> [options]

Commands:
${HELP_TOPICS.map((topic) => ENTRIES[topic]).join('\n')}

${OPTIONS}   (also after any command: workbench runs diff --help)

Agents: manus (default), swe, browser, mcp, toolcall. ${RUN_REF}
${EXIT_CODES}
${ENVIRONMENT}
`;

/** The help of one command, subcommand or group. */
export function helpText(topic: HelpTopic): string {
  const topics = HELP_TOPICS.filter((t) => t === topic || t.startsWith(`${topic} `));
  const entries = topics.map((t) => ENTRIES[t]).join('\n');
  // the exit codes of a run: for the commands that start and follow one
  const isRunLike = topics.some(
    (t) => t === 'run' || t === 'runs fork' || t === 'runs resume' || t === 'runs continue',
  );
  const takesRun = /\bRUN\b/.test(entries);
  const synopsis =
    topic === 'runs' || topic === 'config' || topic === 'agents'
      ? `${topic} <subcommand>`
      : `${topic} [options]`;
  return [
    `Usage: workbench ${synopsis}`,
    '',
    entries,
    '',
    OPTIONS,
    '',
    ...(takesRun ? [RUN_REF] : []),
    ...(topic === 'run' ? ['Agents: manus (default), swe, browser, mcp, toolcall.'] : []),
    ...(isRunLike ? [EXIT_CODES] : []),
    ENVIRONMENT,
    '',
  ].join('\n');
}

/** `runs help diff` → `runs diff`; `runs help` (or an unknown word) → `runs`. */
export function helpTopicAfter(
  group: 'runs' | 'config' | 'agents',
  words: readonly string[],
): HelpTopic {
  const name = [group, ...words].join(' ');
  return isHelpTopic(name) ? name : group;
}

const KNOWN_TOPICS: readonly string[] = [...HELP_TOPICS, 'runs', 'config', 'agents'];

export function isHelpTopic(name: string): name is HelpTopic {
  return KNOWN_TOPICS.includes(name);
}

/** `-h` or `--help` among the arguments (before a `--`, after which all are operands). */
export function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}
