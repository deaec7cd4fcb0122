import net from 'node:net';
import { ChunkedDecoder, formatGga } from '@portal/caster';
import {
  type ConnectionTestReason,
  type ConnectionTestResult,
  type Constellation,
  rtcmMessageInfo,
} from '@portal/contract';
import {
  diffSeconds,
  frameMessageType,
  framePayload,
  type GnssSystem,
  getBitU,
  ObservationDecoder,
  RtcmFramer,
  utcToGpst,
} from '@portal/gnss';

/** Where the API reaches its caster: loopback in one process, the caster's internal address otherwise. */
export interface CasterAddress {
  host: string;
  port: number;
}

const SYSTEM_NAMES: Record<GnssSystem, Constellation> = {
  G: 'GPS',
  R: 'GLONASS',
  E: 'Galileo',
  S: 'SBAS',
  J: 'QZSS',
  C: 'BeiDou',
  I: 'NavIC',
};
const HEAD_LIMIT = 16 * 1024;

/** What the caster answered, before the account's own state turns it into a reason. */
export type CasterOutcome = Omit<ConnectionTestResult, 'reason'> & {
  /** The HTTP status of a refusal; 200 when the stream was opened; null when no answer came. */
  status: number | null;
  reason: Extract<ConnectionTestReason, 'no_data' | 'not_rtcm' | 'caster_unreachable' | 'caster_error'> | null;
};

/**
 * Logs in to the caster as an NTRIP 2 rover for at most `durationMs` and reports what came back: the status line,
 * bytes and frames, the RTCM 3 message types, the satellites of the last whole observation epoch per
 * constellation and how old the data is. A nearest-station mountpoint gets the position in the Ntrip-GGA header.
 */
export function testCasterConnection(options: {
  caster: CasterAddress;
  username: string;
  password: string;
  mountpoint: string;
  position?: { latitude: number; longitude: number };
  durationMs: number;
  now?: () => number;
}): Promise<CasterOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const counts = new Map<number, number>();
  const satellites = new Map<Constellation, number>();
  let bytes = 0;
  let frames = 0;
  let firstFrameAt: number | null = null;
  let lastFrameAt: number | null = null;
  let stationId: number | null = null;
  let newestEpochAge: number | null = null;
  let status: number | null = null;
  let casterAnswer: string | null = null;

  const decoder = new ObservationDecoder({ approxTime: utcToGpst(started) }, (epoch) => {
    stationId ??= epoch.stationId;
    const perSystem = new Map<Constellation, number>();
    for (const sat of epoch.satellites) {
      const name = SYSTEM_NAMES[sat.sys];
      perSystem.set(name, (perSystem.get(name) ?? 0) + 1);
    }
    for (const [name, count] of perSystem) satellites.set(name, count);
    newestEpochAge = diffSeconds(utcToGpst(now()), epoch.time);
  });
  const framer = new RtcmFramer((frame) => {
    const type = frameMessageType(frame);
    const at = now();
    frames++;
    firstFrameAt ??= at;
    lastFrameAt = at;
    counts.set(type, (counts.get(type) ?? 0) + 1);
    const payload = framePayload(frame);
    if ((type === 1005 || type === 1006) && payload.length >= 3) stationId ??= getBitU(payload, 12, 12);
    decoder.decode(payload);
  });

  return new Promise((resolve) => {
    const socket = net.connect({ host: options.caster.host, port: options.caster.port });
    let head = Buffer.alloc(0);
    let body: ((chunk: Buffer) => void) | null = null;
    let done = false;
    const finish = (reason: CasterOutcome['reason']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const end = now();
      const ok = frames > 0;
      resolve({
        mountpoint: options.mountpoint,
        ok,
        status,
        reason: ok ? null : (reason ?? (bytes > 0 ? 'not_rtcm' : 'no_data')),
        casterAnswer,
        durationMs: end - started,
        bytes,
        frames,
        firstFrameAfterMs: firstFrameAt === null ? null : firstFrameAt - started,
        lastFrameAgeMs: lastFrameAt === null ? null : end - lastFrameAt,
        observationAgeSeconds: newestEpochAge,
        stationId,
        messages: [...counts]
          .sort(([a], [b]) => a - b)
          .map(([type, count]) => ({ type, count, ...rtcmMessageInfo(type) })),
        satellites: [...satellites].map(([constellation, count]) => ({ constellation, count })),
      });
    };
    const timer = setTimeout(() => finish(status === null ? 'caster_unreachable' : null), options.durationMs);
    socket.setNoDelay(true);
    socket.on('error', () => finish(status === null ? 'caster_unreachable' : null));
    socket.on('close', () => finish(status === null ? 'caster_unreachable' : null));
    socket.on('connect', () => {
      const auth = Buffer.from(`${options.username}:${options.password}`).toString('base64');
      const lines = [
        `GET /${options.mountpoint} HTTP/1.1`,
        `Host: ${options.caster.host}`,
        'Ntrip-Version: Ntrip/2.0',
        'User-Agent: NTRIP GNSSPortalConnectionTest/1.0',
        `Authorization: Basic ${auth}`,
        ...(options.position ? [`Ntrip-GGA: ${formatGga(options.position).trim()}`] : []),
        'Connection: close',
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      if (body) return body(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > HEAD_LIMIT) finish('caster_error');
        return;
      }
      const text = head.subarray(0, end).toString('latin1');
      const [statusLine = '', ...headers] = text.split('\r\n');
      casterAnswer = statusLine.slice(0, 200);
      status = Number(/^(?:HTTP\/1\.[01]|ICY) (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const rest = head.subarray(end + 4);
      if (status !== 200) return finish('caster_error');
      const chunked = headers.some((h) => /^transfer-encoding:\s*chunked/i.test(h));
      const feed = (data: Buffer) => {
        bytes += data.length;
        framer.push(data);
      };
      if (chunked) {
        const decoder = new ChunkedDecoder(feed, () => finish(null));
        body = (data) => {
          try {
            decoder.push(data);
          } catch {
            finish('caster_error');
          }
        };
      } else body = feed;
      if (rest.length) body(rest);
    });
  });
}
