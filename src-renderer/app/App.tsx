import { NewRunForm } from '../features/new-run/NewRunForm';
import { RunView } from '../features/run-view/RunView';
import { useWorkbench } from '../store/StoreProvider';

export function App() {
  const isConnected = useWorkbench((s) => s.isConnected);
  const lastError = useWorkbench((s) => s.lastError);
  return (
    <div className="app">
      <header className="app-header">
        <h1>Agent Workbench</h1>
        {!isConnected && (
          <span className="badge badge-error" role="status">
            disconnected
          </span>
        )}
      </header>
      {lastError && (
        <div className="error-banner" role="alert">
          {lastError}
        </div>
      )}
      <main className="app-main">
        <NewRunForm />
        <RunView />
      </main>
    </div>
  );
}
