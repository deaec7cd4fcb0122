// A worker thread does not inherit the parent's TypeScript loader (tsx) on Node 20: register it, then run the archive.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
