import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './styles/theme.css';
import { App } from './App';
import { connectHost } from './host/hostClient';
import { setHost } from './host/hostContext';

const root = createRoot(document.getElementById('root')!);

connectHost().then(
  (api) => {
    setHost(api);
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  },
  (error: Error) => {
    root.render(
      <div className="app-empty" role="alert">
        <h2>Cannot reach the Crewdeck host</h2>
        <p>{error.message}</p>
        <p>In browser mode, open the exact URL printed by <code>crewdeck serve</code> (it carries the access token).</p>
      </div>,
    );
  },
);
