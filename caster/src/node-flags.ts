/**
 * Node options for the process that runs the caster (scripts/launch.ts, `npm run -w server start`, the bench).
 * A garbage-collection pause holds up the frame being relayed for every rover at once (ADR 0003):
 * - V8's memory reducer compacts the heap when the process looks idle, 10–28 ms at a time;
 * - a small young generation keeps each scavenge short and does not leave a connection burst's 16 MB semi-spaces
 *   behind as resident memory.
 */
export const CASTER_NODE_FLAGS = ['--no-memory-reducer', '--max-semi-space-size=2'];
