import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { NewRunForm } from './NewRunForm';

/** "New run": the task box, and for a new user what to do first. */
export function NewRunPage() {
  const store = useWorkbenchStore();
  const runCount = useWorkbench((s) => s.order.length);
  const apiKeySet = useWorkbench((s) => s.config?.defaults.apiKey.isSet);
  return (
    <section className="new-run-page" aria-label="New run">
      <NewRunForm />
      <div className="empty-state getting-started" data-testid={TEST_IDS.runEmpty}>
        {runCount === 0 ? <h2>No runs yet</h2> : <h2>Start another run</h2>}
        <ol>
          <li>
            Describe a task above and press “Start run”. Each step streams into the timeline as it
            happens.
          </li>
          <li>
            Pick the model per agent in{' '}
            <button
              type="button"
              className="link"
              onClick={() => store.getState().showConfig('manus')}
            >
              Settings
            </button>
            {apiKeySet === false ? ' (no API key is set yet).' : '.'}
          </li>
          <li>
            Repeated responses are highlighted and linked; select any row to see exactly what the
            model received.
          </li>
        </ol>
      </div>
    </section>
  );
}
