import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectApi } from './api/connect';
import { createWorkbenchStore } from './store/store';
import { startBridge } from './store/bridge';
import { StoreProvider } from './store/StoreProvider';
import './styles/base.css';
import './styles/layout.css';
import './styles/inspector.css';
import './styles/timeline.css';
import './styles/config.css';
import './styles/debugger.css';
import './styles/compare.css';
import './styles/batch.css';
import './styles/content.css';
import './styles/structure.css';
import './styles/playground.css';
import './styles/mcp.css';
import './styles/files.css';
import './styles/terminal.css';
import './styles/agents.css';

const root = createRoot(document.getElementById('root')!);
const store = createWorkbenchStore();

try {
  const api = connectApi(window);
  const bridge = startBridge(api, store);
  root.render(
    <StrictMode>
      <StoreProvider store={store} bridge={bridge}>
        <App />
      </StoreProvider>
    </StrictMode>,
  );
} catch (error) {
  root.render(
    <div className="fatal" role="alert">
      <h1>Agent Workbench could not connect</h1>
      <p>{(error as Error).message}</p>
    </div>,
  );
}
