// The signed-in admin's frame, one chunk: the shell (sidebar, header) and the page frame of the
// screens (settings). Apart, the frame was a request of its own that the shell waited for on every
// route, the records screen included, and it came last in the browser's connection queue.
export { AppShell } from './AppShell';
export { default as ScreenPageFrame } from './ScreenPageFrame';
