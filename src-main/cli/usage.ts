export const USAGE = `Usage: workbench <command> [options]

Commands:
  run [--agent NAME] [--flow planning] [--config FILE] [--max-steps N] [--jsonl] TASK
                      run an agent on TASK and print its steps; TASK file:PATH reads it from a file
  run --agent mcp [--connection stdio|sse|http] [--server-url URL | --server-command "CMD ARGS"] TASK
                      the MCP server for this run (as OpenManus's run_mcp.py), else [mcp] in config.toml
  runs list           list the runs in the history
  runs show RUN_ID [--jsonl]
                      show a run from the history (--jsonl replays its events)
  runs export RUN_ID [-o FILE] | runs import FILE
                      move one run between machines as a single .jsonl file
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
Exit codes: 0 finished, 3 max steps reached, 1 error, 2 bad usage or config, 130 interrupted.
Environment: WORKBENCH_HOME (default ~/.agent-workbench) holds config.toml and runs/.
`;
