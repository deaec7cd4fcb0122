import net from 'node:net';
import tls from 'node:tls';
import { ChunkedDecoder } from '../src/index.ts';
import { monotonicMs } from './rover-loaders.ts';

/**
 * A load generator process: opens its share of rovers (alternately NTRIP 1 and NTRIP 2), reads every frame and
 * records the send time stamped in the frame's payload and the receive time minus it. With `tls` as its fourth
 * argument the rovers connect over TLS (the caster's certificate is not checked: the bench made it).
 */
const [portArg, countArg, firstArg, tlsArg] = process.argv.slice(2);
const overTls = tlsArg === 'tls';
const port = Number(portArg);
const count = Number(countArg);
const first = Number(firstArg);
const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`;

let measuring = false;
let samples: number[] = [];
let frames = 0;
let disconnected = 0;
let cpuAtMeasure = process.cpuUsage();

function onFrame(data: Buffer) {
  frames++;
  // Only the bench's stamped frames (message type 1077, first byte 0x43): the 1005 it also sends carries no time.
  if (!measuring || data.length < 13 || data[3] !== 0x43) return;
  const sent = data.readDoubleLE(5);
  samples.push(sent, monotonicMs() - sent);
}

/**
 * Cuts the stream at frame boundaries from the length field alone. The caster forwards only CRC-checked frames
 * (the protocol and RTKLIB tests prove it); checking the CRC again here would only make the load generator, which
 * shares the machine's cores with the caster, a bigger part of what is measured.
 */
function frameCutter(onFrame: (frame: Buffer) => void) {
  let pending: Buffer | null = null;
  return (chunk: Buffer) => {
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    let i = 0;
    while (i + 3 <= data.length) {
      if (data[i] !== 0xd3) {
        i++;
        continue;
      }
      const total = 6 + ((((data[i + 1] as number) & 0x03) << 8) | (data[i + 2] as number));
      if (i + total > data.length) break;
      onFrame(data.subarray(i, i + total));
      i += total;
    }
    if (i < data.length) pending = Buffer.from(data.subarray(i));
  };
}

/**
 * Every socket of this process reads into one reused buffer (`onread`), without the stream layer's allocation and
 * events per read: the load generator shares the machine's cores with the caster, so its own cost per read is
 * kept small, or the figures would mostly measure the rovers' side. Everything kept across reads is copied.
 */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

function openRover(index: number): Promise<void> {
  const v2 = index % 2 === 1;
  return new Promise((resolve, reject) => {
    const cut = frameCutter(onFrame);
    const decoder = new ChunkedDecoder(cut);
    const stream = (data: Buffer) => (v2 ? decoder.push(data) : cut(data));
    let head = '';
    let streaming = false;
    const read = (chunk: Buffer): boolean => {
      if (streaming) {
        stream(chunk);
        return true;
      }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return true;
      if (!/^(ICY 200 OK|HTTP\/1\.1 200 OK)/.test(head)) {
        reject(new Error(`rover refused: ${head.slice(0, 80)}`));
        return false;
      }
      streaming = true;
      resolve();
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      if (rest.length) stream(rest);
      return true;
    };
    // A TLS socket has no `onread`: its decrypted bytes come as 'data' events.
    const socket = overTls
      ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false })
      : net.connect({
          port,
          host: '127.0.0.1',
          onread: {
            buffer: readBuffer,
            callback: (size: number, buffer: Uint8Array) => read(Buffer.from(buffer.buffer, buffer.byteOffset, size)),
          },
        });
    if (overTls) socket.on('data', read);
    socket.setNoDelay(true);
    socket.on(overTls ? 'secureConnect' : 'connect', () => {
      socket.write(
        v2
          ? `GET /BENCH HTTP/1.1\r\nHost: 127.0.0.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: ${auth}\r\n\r\n`
          : `GET /BENCH HTTP/1.0\r\nUser-Agent: NTRIP bench\r\nAuthorization: ${auth}\r\n\r\n`,
      );
    });
    socket.on('error', (err) => (streaming ? undefined : reject(err)));
    socket.on('close', () => {
      if (streaming) disconnected++;
    });
  });
}

/** Under BENCH_ISOLATE the loop never sleeps in epoll, so the caster's sends never have to wake this process. */
if (process.env.BENCH_ISOLATE) {
  const spin = () => setImmediate(spin);
  spin();
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
    cpuAtMeasure = process.cpuUsage();
    process.send?.({ type: 'measuring' });
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage(cpuAtMeasure);
    process.send?.({ type: 'report', samples, frames, disconnected, cpuMicros: cpu.user + cpu.system });
  } else if (message.type === 'stop') {
    process.exit(0);
  }
});

main().catch((err) => {
  process.send?.({ type: 'error', message: (err as Error).message });
  process.exit(1);
});
