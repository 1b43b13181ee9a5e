export const USAGE = `Usage: workbench <command> [options]

Commands:
  run [--agent NAME] [--flow planning] [--config FILE] [--max-steps N] [--jsonl]
      [--workspace DIR [--isolated]] TASK | file:PATH | --prompt TASK | -
                      run an agent on TASK: progress on stderr, the answer on stdout
                      (file:PATH reads the task from a file, - from stdin); --workspace
                      mounts DIR at /workspace (--isolated: works on a copy of it)
      [--break SPEC]... [--approve TOOL]... [--no-breakpoints]
                      debug it in this terminal: pause at breakpoints (tool:NAME[:PATTERN],
                      stuck, tool_error, model_error, step:N, tokens:N, cost:USD), approve
                      calls of TOOL before they run; Ctrl-\\ pauses; ? at the prompt for help
  run --agent mcp [--connection stdio|sse|http] [--server-url URL | --server-command "CMD ARGS"] TASK
                      the MCP server for this run (as OpenManus's run_mcp.py), else [mcp] in config.toml
  batch TASKS.jsonl --agent NAME [--profile A]... [--repeat K] [--concurrency N]
      [--check CMD] [--max-steps N] [--json]
                      run every task (one JSON object a line: task, workspace?, check?)
                      with every profile, K times, N at once; the grid on stdout;
                      exit 0 when every run finished and every check passed
  batch --resume BATCH_ID | batch show BATCH_ID [--json]
                      go on with a stopped or killed batch (finished runs are kept) |
                      show its grid
  runs list           list the runs in the history
  runs show RUN|PREFIX|last [--jsonl]
                      show a run from the history (--jsonl replays its events)
  runs export RUN [-o FILE] | runs import FILE
                      move one run between machines as a single .jsonl file
  runs rename RUN TITLE | runs delete RUN
                      name a run in the history; delete a run and its files
  runs diff A B [C ...] [--json]
                      compare runs step by step (run ids or exported .jsonl files);
                      exit 0 when equivalent, 1 when they differ
  runs fork RUN --at STEP [--message TEXT] [--agent-model PROFILE] [--max-steps N] [--without-files] [--jsonl]
                      a new run from step STEP of RUN: its context and its sandbox files
                      restored in a fresh container, TEXT added as a user message
  runs resume RUN [--jsonl]
                      continue a run the app was killed in, from its last step
  runs delete RUN...  delete runs with their sandbox snapshots
  config show [--agent NAME] [--json]
                      the effective settings of each agent and where each comes from
  config import-openmanus FILE [--dry-run]
                      take over an OpenManus config.toml (says what it left out)
  config test [--agent NAME]
                      test the model connection of an agent's profile
  serve [--host 127.0.0.1] [--port N]
                      serve the workbench UI in a browser (prints the URL to open)

Options:
  -h, --help          show this help

Agents: manus (default), swe, browser, mcp, toolcall.
Exit codes: 0 finished (also with failed tool calls), 1 error or the agent reported
failure, 2 bad usage or config (pre-flight errors too), 3 max steps reached, 130 stopped.
Environment: WORKBENCH_HOME (default ~/.agent-workbench) holds config.toml and runs/.
`;
