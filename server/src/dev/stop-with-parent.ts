/**
 * A child of `npm start` must not outlive it: an orphaned server keeps the portal's port and the PGlite directory,
 * an orphaned Auth Emulator its port, and the next `npm start` then fails. Linux tells a child nothing when its
 * parent is killed with SIGKILL, but the child's parent pid changes (to init or a subreaper), so the child watches it.
 *
 * This preload (`node --import STOP_WITH_PARENT …`) does that inside any Node program, including ones we cannot
 * change (firebase-tools, Vite): once the parent is gone the program gets SIGTERM, its own clean shutdown, and is
 * ended outright if that has not finished within ten seconds. It is a data: URL so it needs no file or loader.
 */
export const STOP_WITH_PARENT = `data:text/javascript,${encodeURIComponent(`
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  setTimeout(() => process.exit(1), 10000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
watch.unref();
`)}`;

/** The same watch for a process of ours (the launcher under tsx): calls `onGone` once its parent has died. */
export function onParentGone(onGone: () => void): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    onGone();
  }, 500);
  watch.unref();
}
