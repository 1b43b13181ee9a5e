import { TEST_IDS } from '../../test-ids';
import { useWorkbench } from '../../store/StoreProvider';

/** A run whose task came from an MCP prompt (`run.started.prompt`): which one, with what. */
export function PromptOrigin({ runId }: { runId: string }) {
  const prompt = useWorkbench((s) => {
    const first = s.runs[runId]?.timeline.items[0];
    return first?.kind === 'run' ? first.prompt : undefined;
  });
  if (!prompt) return null;
  const args = Object.entries(prompt.arguments);
  return (
    <div
      className="info-note"
      role="note"
      data-testid={TEST_IDS.runPromptOrigin}
      data-server={prompt.server}
      data-prompt={prompt.name}
    >
      from MCP prompt{' '}
      <strong className="mono">
        {prompt.server}/{prompt.name}
      </strong>
      {args.length > 0 && (
        <span className="muted">
          {' '}
          ({args.map(([name, value]) => `${name} = ${value}`).join(', ')})
        </span>
      )}
    </div>
  );
}
