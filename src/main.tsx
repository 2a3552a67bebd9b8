import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/Router';
import './styles/index.css';

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
