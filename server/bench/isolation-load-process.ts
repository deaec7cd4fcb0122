import {
  type FloodOptions,
  type Load,
  reconnectStorm,
  type SlowOptions,
  type StormOptions,
  slowClients,
  sourcetableFlood,
  type Tally,
} from './isolation-load.ts';

/**
 * One load of `npm run bench:isolation` in a process of its own, so generating it never delays the bench's API
 * user: started by a `start` message, ended by `stop`, to which it answers with what the caster answered and the
 * CPU time it took.
 */
export type LoadRequest =
  | { type: 'start'; kind: 'storm'; options: StormOptions }
  | { type: 'start'; kind: 'flood'; options: FloodOptions }
  | { type: 'start'; kind: 'slow'; options: SlowOptions }
  | { type: 'stop' };

export interface LoadResult {
  type: 'stopped';
  tally: Tally;
  /** Time per attempt, ms. */
  attemptMs: number[];
  cpuMicros: number;
}

let load: Load | null = null;
let cpuAtStart = process.cpuUsage();

process.on('message', async (message: LoadRequest) => {
  if (message.type === 'start') {
    cpuAtStart = process.cpuUsage();
    if (message.kind === 'storm') load = reconnectStorm(message.options);
    else if (message.kind === 'flood') load = sourcetableFlood(message.options);
    else load = slowClients(message.options);
    process.send?.({ type: 'started' });
    return;
  }
  const tally = (await load?.stop()) ?? {};
  const cpu = process.cpuUsage(cpuAtStart);
  const result: LoadResult = {
    type: 'stopped',
    tally,
    attemptMs: load?.attemptMs ?? [],
    cpuMicros: cpu.user + cpu.system,
  };
  process.send?.(result, () => process.exit(0));
});
