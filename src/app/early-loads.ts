// The first requests of the screen being opened, sent while the app's first script is still being
// evaluated: main.tsx imports this module first, so it runs before React and the router are even
// evaluated (~70 ms of a cold open). On #/collections, the boot script's collections answer is
// usually in by then and the first records page goes out at once; the Logs page asks for its
// first rows and stats. Each checks the address and the session itself. The admin's role is asked
// for too (src/state/permissions.ts).
import { startFirstLoad as startLogsFirstLoad } from '../pages/logs/logs-first-load';
import { startFirstLoad as startRecordsFirstLoad } from '../pages/records/list/records-first-load';
import { pb } from '../api/client';
import { loadAccess } from '../state/permissions';

startLogsFirstLoad();
startRecordsFirstLoad();
// the admin's role, beside the first data: screens and the records list wait for it
if (pb.authStore.isValid && pb.authStore.model && !('collectionId' in pb.authStore.model)) void loadAccess();
