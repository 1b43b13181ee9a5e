import { useState, type CSSProperties } from 'react';
import { TEST_IDS } from '../test-ids';
import { useWorkbench, useWorkbenchStore } from '../store/StoreProvider';
import { ComparePage } from '../features/compare/ComparePage';
import { BatchPage } from '../features/batch/BatchPage';
import { PlaygroundPage } from '../features/playground/PlaygroundPage';
import { AgentsPage } from '../features/agents/AgentsPage';
import { ConfigEditor } from '../features/config/ConfigEditor';
import { RunHistory } from '../features/history/RunHistory';
import { Inspector } from '../features/inspector/Inspector';
import { NewRunPage } from '../features/new-run/NewRunPage';
import { RunView } from '../features/run-view/RunView';
import { SandboxStatus } from '../features/sandbox/SandboxStatus';
import { GatewayPanel } from '../features/gateway/GatewayPanel';
import { TelemetryStatus } from '../features/telemetry/TelemetryStatus';
import { useSettingsGuard } from '../features/config/use-settings-guard';
import { useUrlSync } from './use-url-sync';
import { PaneSplitter } from './PaneSplitter';
import { ConnectionBadge, ConnectionEndBanner } from './ConnectionNotice';
import { loadPaneWidths, savePaneWidths, type Pane } from './pane-widths';

/** The window: top bar, run history, the page (new run, run, settings), the inspector. */
export function App() {
  const store = useWorkbenchStore();
  const appState = useWorkbench((s) => s.appState);
  const lastError = useWorkbench((s) => s.lastError);
  const view = useWorkbench((s) => s.view);
  const mode = useWorkbench((s) => s.appInfo?.mode);
  useUrlSync(store);
  useSettingsGuard(store);
  const [panes, setPanes] = useState(() => loadPaneWidths(globalThis.localStorage));
  const resize = (pane: Pane) => (width: number, isFinal: boolean) => {
    const next = { ...panes, [pane]: width };
    setPanes(next);
    if (isFinal) savePaneWidths(globalThis.localStorage, next);
  };
  const layoutStyle = {
    '--sidebar-width': `${panes.sidebar}px`,
    '--inspector-width': `${panes.inspector}px`,
  } as CSSProperties;
  return (
    <div className="app" data-testid={TEST_IDS.app} data-app-state={appState}>
      <header className="topbar">
        <h1>Agent Workbench</h1>
        <nav className="topnav" aria-label="Pages">
          <button
            type="button"
            className={`tab${view !== 'config' && view !== 'batch' && view !== 'agents' ? ' is-active' : ''}`}
            onClick={() =>
              store.getState().showView(store.getState().selectedRunId ? 'run' : 'new')
            }
          >
            Runs
          </button>
          <button
            type="button"
            className={`tab${view === 'batch' ? ' is-active' : ''}`}
            data-testid={TEST_IDS.navBatch}
            onClick={() => store.getState().showView('batch')}
          >
            Batches
          </button>
          <button
            type="button"
            className={`tab${view === 'agents' ? ' is-active' : ''}`}
            data-testid={TEST_IDS.navAgents}
            onClick={() => store.getState().showAgents(null)}
          >
            Agents
          </button>
          <button
            type="button"
            className={`tab${view === 'config' ? ' is-active' : ''}`}
            data-testid={TEST_IDS.navConfig}
            onClick={() => store.getState().showView('config')}
          >
            Settings
          </button>
        </nav>
        <span className="spacer" />
        {mode === 'browser' && <span className="muted">browser mode</span>}
        <TelemetryStatus />
        <GatewayPanel />
        <SandboxStatus />
        <ConnectionBadge />
      </header>
      <ConnectionEndBanner />
      {lastError && (
        <div className="error-banner" role="alert" data-testid={TEST_IDS.errorBanner}>
          {lastError}
          <button type="button" className="link" onClick={() => store.getState().setError(null)}>
            dismiss
          </button>
        </div>
      )}
      <div className={`layout${view === 'run' ? ' with-inspector' : ''}`} style={layoutStyle}>
        <RunHistory />
        <PaneSplitter
          pane="sidebar"
          width={panes.sidebar}
          onResize={resize('sidebar')}
          testId={TEST_IDS.splitterSidebar}
        />
        <main className="main">
          {view === 'config' ? (
            <ConfigEditor />
          ) : view === 'new' ? (
            <NewRunPage />
          ) : view === 'compare' ? (
            <ComparePage />
          ) : view === 'batch' ? (
            <BatchPage />
          ) : view === 'playground' ? (
            <PlaygroundPage />
          ) : view === 'agents' ? (
            <AgentsPage />
          ) : (
            <RunView />
          )}
        </main>
        {view === 'run' && (
          <>
            <PaneSplitter
              pane="inspector"
              width={panes.inspector}
              onResize={resize('inspector')}
              testId={TEST_IDS.splitterInspector}
            />
            <Inspector />
          </>
        )}
      </div>
    </div>
  );
}
