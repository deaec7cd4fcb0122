import net from 'node:net';
import { ChunkedDecoder, RtcmFramer } from '../src/index.ts';

/**
 * A load generator process: opens its share of rovers (alternately NTRIP 1 and NTRIP 2), reads every frame and
 * records receive time minus the send time stamped in the frame's payload.
 */
const [portArg, countArg, firstArg] = process.argv.slice(2);
const port = Number(portArg);
const count = Number(countArg);
const first = Number(firstArg);
const clock = () => performance.timeOrigin + performance.now();
const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`;

let measuring = false;
let samples: number[] = [];
let frames = 0;
let disconnected = 0;

function onFrame(data: Buffer) {
  frames++;
  if (!measuring || data.length < 13) return;
  samples.push(clock() - data.readDoubleLE(5));
}

function openRover(index: number): Promise<void> {
  const v2 = index % 2 === 1;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const framer = new RtcmFramer((f) => onFrame(f.data));
    const decoder = new ChunkedDecoder((d) => framer.push(d));
    let head = '';
    let streaming = false;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(
        v2
          ? `GET /BENCH HTTP/1.1\r\nHost: 127.0.0.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: ${auth}\r\n\r\n`
          : `GET /BENCH HTTP/1.0\r\nUser-Agent: NTRIP bench\r\nAuthorization: ${auth}\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (streaming) {
        if (v2) decoder.push(chunk);
        else framer.push(chunk);
        return;
      }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!/^(ICY 200 OK|HTTP\/1\.1 200 OK)/.test(head))
        return reject(new Error(`rover refused: ${head.slice(0, 80)}`));
      streaming = true;
      resolve();
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      if (rest.length) (v2 ? decoder : framer).push(rest);
    });
    socket.on('error', (err) => (streaming ? undefined : reject(err)));
    socket.on('close', () => {
      if (streaming) disconnected++;
    });
  });
}

async function main() {
  const batch = 100;
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => openRover(first + i + k)));
  }
  process.send?.({ type: 'connected', count });
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'measure') {
    samples = [];
    frames = 0;
    measuring = true;
  } else if (message.type === 'report') {
    measuring = false;
    process.send?.({ type: 'report', samples, frames, disconnected });
  } else if (message.type === 'stop') {
    process.exit(0);
  }
});

main().catch((err) => {
  process.send?.({ type: 'error', message: (err as Error).message });
  process.exit(1);
});
