/** The localStorage key of the admin's theme choice: read by src/ui/theme.ts and by the boot theme script the build emits (scripts/vite-plugin-theme-script.ts). */
export const THEME_STORAGE_KEY = 'outpost_theme';
