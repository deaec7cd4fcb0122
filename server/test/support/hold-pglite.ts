import { openDatabase } from '../../src/db/client.ts';

/** Another process owning a PGlite directory (argv[2]) until it is killed: what the running portal does. */
await openDatabase({ pgliteDataDir: process.argv[2] as string });
console.log('holding');
setInterval(() => {}, 60_000);
