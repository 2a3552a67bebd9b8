// first: the opening screen's requests go out before the rest of the app is evaluated
import './app/early-loads';
import { applyStoredTheme } from './ui/theme';
import { startLanguage, useLanguage } from './ui/i18n';
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

// A language change remounts the app: every screen draws again with the new words (the hash
// keeps the route; an open form's unsaved edits go, as on a reload).
function LanguageRoot() {
  return <App key={useLanguage()} />;
}

// The language's words are fetched beside the opening route's code (./app/Router.tsx starts it).
void startLanguage().then(() =>
  createRoot(document.getElementById('app')!).render(
    <StrictMode>
      <LanguageRoot />
    </StrictMode>,
  ),
);
