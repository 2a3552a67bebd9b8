/** The localStorage key of the admin's theme choice: read by src/ui/theme.ts and by the boot script the build emits (scripts/vite-plugin-boot-script.ts). */
export const THEME_STORAGE_KEY = 'outpost_theme';
