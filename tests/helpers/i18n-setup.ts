// The unit and contract projects render with the source language's words in place, as the
// dashboard does once main.tsx and the router have loaded them (src/ui/i18n.ts).
import ui from '../../locales/en/ui.json';
import app from '../../locales/en/app.json';
import { installLanguage } from '../../src/ui/i18n';

installLanguage('en', ui, undefined, 'ui');
installLanguage('en', app, undefined, 'app');
