import { applyStoredTheme } from './app/theme';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/Router';
import './styles/index.css';

// Before the first render: a stored theme choice must not flash the system one.
applyStoredTheme();

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
