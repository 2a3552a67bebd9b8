// Moved to src/lib/json-depth.ts (the json field's check, shared with the dashboard, needs it too).
export { jsonTooDeep, MAX_JSON_DEPTH } from '../../src/lib/json-depth';
