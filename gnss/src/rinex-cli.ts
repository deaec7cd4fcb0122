/** Entry point of `npm run rinex` (see cli.ts). */
import { runCli } from './cli.ts';

process.exitCode = await runCli(process.argv.slice(2));
