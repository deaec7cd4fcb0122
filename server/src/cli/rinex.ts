/**
 * Entry point of `npm run rinex`: `archive` reads the portal's database and archive store, so it runs here; every
 * other command (convert) is the gnss workspace's, which knows nothing of the portal.
 */
import { runCli } from '@portal/gnss';
import { runArchiveCommand } from './rinex-archive.ts';

const argv = process.argv.slice(2);
process.exitCode = argv[0] === 'archive' ? await runArchiveCommand(argv.slice(1)) : await runCli(argv);
