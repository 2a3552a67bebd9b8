// first: the opening screen's requests go out before the rest of the app is evaluated
import './app/early-loads';
import { applyStoredTheme } from './ui/theme';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/Router';
import { connectApiEvents } from './app/api-events';
import { appEngineHost } from './app/engine-host';
import { provideEngineHost } from './engine/host';
import './styles/index.css';

// Before the first render: a stored theme choice must not flash the system one.
applyStoredTheme();
connectApiEvents();
provideEngineHost(appEngineHost);

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
