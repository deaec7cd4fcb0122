/**
 * Entry point of `npm run rinex`: `archive` reads the portal's database and archive store, so it runs here; every
 * other command (convert) is the gnss workspace's, which knows nothing of the portal.
 */
import { runCli } from '@portal/gnss';
import { ARCHIVE_USAGE, runArchiveCommand } from './rinex-archive.ts';

const argv = process.argv.slice(2);
if (argv[0] === 'archive') process.exitCode = await runArchiveCommand(argv.slice(1));
else {
  process.exitCode = await runCli(argv);
  // No command, or one neither knows: the gnss CLI listed convert's options; archive's belong beside them.
  if (argv[0] !== 'convert') process.stderr.write(`\n${ARCHIVE_USAGE}`);
}
