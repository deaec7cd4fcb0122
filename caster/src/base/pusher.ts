import net from 'node:net';
import { createRetimer, frameMessageType, framePayload, getBitU, validFrames } from '@portal/gnss';

/** A burst of frames sent together, and how long after the previous one the receiver produced it. */
export interface Epoch {
  frames: Buffer[];
  /** Milliseconds after the previous epoch (the first: 0). */
  delayMs: number;
}

const DAY_MS = 86_400_000;
/** A gap between epochs longer than this (a capture stitched from pieces) is sent after one second instead. */
const MAX_GAP_MS = 10_000;
const DEFAULT_GAP_MS = 1_000;
/** GPS − UTC since 2017; GLONASS keeps UTC + 3 h. Only used to put GLONASS epochs on the others' scale. */
const GPS_LEAP_MS = 18_000;
const BDT_OFFSET_MS = 14_000;

/**
 * Time of day (ms, GPS time) of an observation message and whether more messages of its epoch follow (the MSM
 * multiple-message bit, or the legacy messages' synchronous flag); null for any other message.
 */
export function observationTime(frame: Buffer): { todMs: number; more: boolean } | null {
  const type = frameMessageType(frame);
  const payload = framePayload(frame);
  const msm = type >= 1071 && type <= 1137 && type % 10 >= 1 && type % 10 <= 7;
  if (msm) {
    const epoch = getBitU(payload, 24, 30);
    const more = getBitU(payload, 54, 1) === 1;
    const system = Math.floor(type / 10) * 10;
    if (system === 1080) return { todMs: glonassTod(epoch & 0x7ffffff), more };
    if (system === 1120) return { todMs: (epoch + BDT_OFFSET_MS) % DAY_MS, more };
    return { todMs: epoch % DAY_MS, more };
  }
  if (type >= 1001 && type <= 1004) {
    return { todMs: getBitU(payload, 24, 30) % DAY_MS, more: getBitU(payload, 54, 1) === 1 };
  }
  if (type >= 1009 && type <= 1012) {
    return { todMs: glonassTod(getBitU(payload, 24, 27)), more: getBitU(payload, 51, 1) === 1 };
  }
  return null;
}

const glonassTod = (tod: number) => (tod - 3 * 3_600_000 + GPS_LEAP_MS + DAY_MS) % DAY_MS;

/**
 * Cuts a capture into epochs: an epoch ends with the observation message that says no more of its epoch follow;
 * other messages (station position, antenna, ephemerides) go with the epoch they were received in. Each epoch's
 * delay is the difference of its observation time from the previous one's, so a 1 Hz capture is sent at 1 Hz.
 */
export function epochsOf(capture: Buffer): Epoch[] {
  const epochs: Epoch[] = [];
  let frames: Buffer[] = [];
  let lastTod: number | null = null;
  let epochTod: number | null = null;
  const close = () => {
    if (frames.length === 0) return;
    let delayMs = epochs.length === 0 ? 0 : DEFAULT_GAP_MS;
    if (epochTod !== null && lastTod !== null) {
      const gap = (epochTod - lastTod + DAY_MS) % DAY_MS;
      if (gap > 0 && gap <= MAX_GAP_MS) delayMs = gap;
    }
    if (epochTod !== null) lastTod = epochTod;
    epochs.push({ frames, delayMs });
    frames = [];
    epochTod = null;
  };
  for (const frame of validFrames(capture)) {
    frames.push(frame);
    const time = observationTime(frame);
    if (!time) continue;
    epochTod ??= time.todMs;
    if (!time.more) close();
  }
  close();
  return epochs;
}

export interface PushOptions {
  host: string;
  port: number;
  mountpoint: string;
  password: string;
  /** NTRIP 1 `SOURCE` (default) or NTRIP 2 `POST` with Basic authentication. */
  ntripVersion: 1 | 2;
  epochs: Epoch[];
  /** Send the capture again and again (a base station that keeps running); false stops after one pass. */
  loop: boolean;
  /**
   * Move each epoch's observation time to the moment it is sent, as a live receiver's: the caster's archive and
   * RINEX then hold hours of now, and the integrity monitor sees a current stream, not a recording.
   */
  retime?: boolean;
  /** Seconds to wait before reconnecting after the caster closed the connection or refused it. */
  retrySeconds: number;
  log: (line: string) => void;
  signal?: AbortSignal;
}

function loginHead(o: PushOptions): string {
  if (o.ntripVersion === 1)
    return `SOURCE ${o.password} /${o.mountpoint}\r\nSource-Agent: NTRIP portal-base/1.0\r\n\r\n`;
  const auth = Buffer.from(`:${o.password}`).toString('base64');
  return [
    `POST /${o.mountpoint} HTTP/1.1`,
    `Host: ${o.host}:${o.port}`,
    'Ntrip-Version: Ntrip/2.0',
    'User-Agent: NTRIP portal-base/1.0',
    `Authorization: Basic ${auth}`,
    'Content-Type: gnss/data',
    'Transfer-Encoding: chunked',
    '\r\n',
  ].join('\r\n');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal?.addEventListener('abort', wake, { once: true });
  });

/** One connection: log in, then send the epochs on their schedule until the end, an error or the signal. */
async function session(o: PushOptions): Promise<'done' | 'closed'> {
  const socket = net.connect({ host: o.host, port: o.port });
  socket.setNoDelay(true);
  let closed = false;
  socket.on('close', () => {
    closed = true;
  });
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('error', (err) => resolve(`connection failed: ${err.message}`));
    socket.once('connect', () => socket.write(loginHead(o)));
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) {
        socket.off('data', onData);
        resolve(text.split('\r\n')[0] ?? '');
      }
    };
    socket.on('data', onData);
    socket.on('close', () => resolve(text || 'connection closed'));
  });
  if (!/^(ICY 200 OK|HTTP\/1\.1 200)/.test(answer)) {
    o.log(`caster answered: ${answer.trim()}`);
    socket.destroy();
    return 'closed';
  }
  o.log(`connected to ${o.host}:${o.port}/${o.mountpoint} as its base station (NTRIP ${o.ntripVersion})`);
  const chunked = o.ntripVersion === 2;
  const write = (data: Buffer) =>
    socket.write(
      chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data,
    );
  const retimer = o.retime ? createRetimer() : null;
  // The schedule is kept from the start, not from each send, so the pace does not drift with timer delays.
  let due = Date.now();
  let pass = 0;
  do {
    pass++;
    for (const [i, epoch] of o.epochs.entries()) {
      // A new pass starts one ordinary gap after the last epoch of the previous one.
      due += i === 0 && pass > 1 ? DEFAULT_GAP_MS : epoch.delayMs;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait, o.signal);
      if (o.signal?.aborted || closed) break;
      write(Buffer.concat(retimer ? retimer(epoch.frames, Date.now()) : epoch.frames));
    }
  } while (o.loop && !o.signal?.aborted && !closed);
  if (closed && !o.signal?.aborted) {
    o.log('the caster closed the connection');
    return 'closed';
  }
  await new Promise<void>((resolve) => socket.end(resolve));
  return 'done';
}

/**
 * Acts as a base station: sends a capture to the caster as an NTRIP source, paced by its epochs, reconnecting
 * after the caster closes or refuses it (as a base station's NTRIP server does), until the signal aborts.
 */
export async function pushBase(o: PushOptions): Promise<void> {
  const total = o.epochs.reduce((n, e) => n + e.frames.length, 0);
  o.log(`${o.epochs.length} epochs (${total} frames)${o.loop ? ', sent in a loop' : ''}`);
  while (!o.signal?.aborted) {
    if ((await session(o)) === 'done' || o.signal?.aborted) return;
    o.log(`trying again in ${o.retrySeconds} s`);
    await sleep(o.retrySeconds * 1000, o.signal);
  }
}
