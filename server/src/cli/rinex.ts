/**
 * Entry point of `npm run rinex`: `archive` reads the portal's database and archive store, so it runs here; every
 * other command (convert) is the gnss workspace's, which knows nothing of the portal.
 */
import { runCli } from '@portal/gnss';

const argv = process.argv.slice(2);
// archive's module loads the portal's configuration, database drivers and archive store; converting a file needs
// none of them, and loading them would double the command's start-up and memory (docs/performance.md).
const archive = () => import('./rinex-archive.ts');
if (argv[0] === 'archive') process.exitCode = await (await archive()).runArchiveCommand(argv.slice(1));
else {
  process.exitCode = await runCli(argv);
  // No command, or one neither knows: the gnss CLI listed convert's options; archive's belong beside them.
  if (argv[0] !== 'convert') process.stderr.write(`\n${(await archive()).ARCHIVE_USAGE}`);
}
