/**
 * A run whose setup failed after its model and step limit were known (an MCP server that
 * does not answer, a browser that cannot start): the RunManager still records a
 * `run.started` and `run.finished` for it, and with this those say which model and limit it
 * had, instead of "mcp on unknown (max 0 steps)" (issue 26 item 11).
 */
export class RunSetupError extends Error {
  constructor(
    cause: unknown,
    readonly known: { model: string; maxSteps: number },
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'RunSetupError';
  }
}
