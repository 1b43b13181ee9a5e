import { TEST_IDS } from '../../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../../store/StoreProvider';

/** Wrap and line-number switches for tool output (they hold for every card). */
export function OutputToggles() {
  const store = useWorkbenchStore();
  const output = useWorkbench((s) => s.output);
  return (
    <span className="output-toggles">
      <button
        type="button"
        className="toggle small"
        aria-pressed={!output.isWrapped}
        data-testid={TEST_IDS.outputWrap}
        title="Long lines scroll sideways instead of wrapping"
        onClick={(e) => {
          e.stopPropagation();
          store.getState().setOutput({ isWrapped: !output.isWrapped });
        }}
      >
        no wrap
      </button>
      <button
        type="button"
        className="toggle small"
        aria-pressed={output.hasLineNumbers}
        data-testid={TEST_IDS.outputLineNumbers}
        title="Number the lines"
        onClick={(e) => {
          e.stopPropagation();
          store.getState().setOutput({ hasLineNumbers: !output.hasLineNumbers });
        }}
      >
        line numbers
      </button>
    </span>
  );
}
