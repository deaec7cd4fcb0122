import net from 'node:net';
import { ChunkedDecoder } from './chunked.ts';
import type { Clock, ClockTimer } from './clock.ts';
import type { FeedStatus, PullFeedConfig } from './ports.ts';
import { headEnd } from './request.ts';
import { SERVER_NAME } from './responses.ts';
import type { Logger } from './session-log.ts';

export interface PullLink {
  kind: 'pull';
  close(reason: string): void;
}

export interface PullDeps {
  logger: Logger;
  clock: Clock;
  limits: {
    pullRefreshMs: number;
    pullBackoffMinMs: number;
    pullBackoffMaxMs: number;
    sourceSilenceMs: number;
    headerTimeoutMs: number;
    maxHeadBytes: number;
  };
  list(): Promise<PullFeedConfig[]>;
  /** Null when the mountpoint is unknown or already fed. */
  attach(mountpoint: string, link: PullLink): { feed(chunk: Buffer): void; detach(): void } | null;
  status(update: FeedStatus): void;
}

export function pullRequest(config: PullFeedConfig): string {
  const lines = [
    `GET /${config.upstreamMountpoint} ${config.ntripVersion === 2 ? 'HTTP/1.1' : 'HTTP/1.0'}`,
    ...(config.ntripVersion === 2 ? [`Host: ${config.host}:${config.port}`, 'Ntrip-Version: Ntrip/2.0'] : []),
    `User-Agent: ${SERVER_NAME}`,
    ...(config.username !== null
      ? [`Authorization: Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`]
      : []),
    ...(config.ntripVersion === 2 ? ['Connection: close'] : []),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The caster as a client of an upstream caster: one connection per pull feed, reconnecting with exponential backoff. */
class PullClient {
  private socket: net.Socket | null = null;
  private retry: ClockTimer | null = null;
  private failures = 0;
  private stopped = false;

  constructor(
    readonly config: PullFeedConfig,
    private readonly deps: PullDeps,
  ) {}

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) this.deps.clock.clear(this.retry);
    this.socket?.destroy();
  }

  private scheduleRetry(reason: string): void {
    if (this.stopped) return;
    const { pullBackoffMinMs, pullBackoffMaxMs } = this.deps.limits;
    const delay = Math.min(pullBackoffMaxMs, pullBackoffMinMs * 2 ** this.failures);
    this.failures++;
    this.deps.status({ mountpoint: this.config.mountpoint, status: 'error', lastError: reason });
    this.deps.logger.warn({ mountpoint: this.config.mountpoint, reason, retryInMs: delay }, 'pull feed down');
    this.retry = this.deps.clock.setTimeout(() => this.connect(), delay);
  }

  private connect(): void {
    if (this.stopped) return;
    const { config, deps } = this;
    deps.status({ mountpoint: config.mountpoint, status: 'connecting', lastError: null });
    const socket = net.connect({ host: config.host, port: config.port });
    this.socket = socket;
    let reason = 'connection closed';
    let attached: { feed(chunk: Buffer): void; detach(): void } | null = null;
    let head: Buffer = Buffer.alloc(0);
    let input: ((chunk: Buffer) => void) | null = null;
    const fail = (why: string) => {
      reason = why;
      socket.destroy();
    };
    socket.setNoDelay(true);
    socket.setTimeout(deps.limits.headerTimeoutMs, () => fail('upstream did not answer in time'));
    socket.on('connect', () => socket.write(pullRequest(config)));
    socket.on('error', (err) => {
      reason = err.message;
    });
    socket.on('close', () => {
      attached?.detach();
      if (this.socket === socket) this.socket = null;
      this.scheduleRetry(reason);
    });

    const begin = (rest: Buffer, chunked: boolean) => {
      attached = deps.attach(config.mountpoint, { kind: 'pull', close: (why) => fail(why) });
      if (!attached) return fail('mountpoint is already fed or not in the catalogue');
      const feed = attached.feed;
      deps.status({ mountpoint: config.mountpoint, status: 'connected', lastError: null });
      deps.logger.info(
        { mountpoint: config.mountpoint, upstream: `${config.host}:${config.port}` },
        'pull feed connected',
      );
      socket.setTimeout(deps.limits.sourceSilenceMs, () => fail('upstream silent'));
      const plain = (chunk: Buffer) => {
        this.failures = 0;
        feed(chunk);
      };
      if (chunked) {
        const decoder = new ChunkedDecoder(plain, () => fail('upstream ended the stream'));
        input = (chunk) => decoder.push(chunk);
      } else {
        input = plain;
      }
      if (rest.length) input(rest);
    };

    socket.on('data', (chunk: Buffer) => {
      if (input) {
        try {
          input(chunk);
        } catch (err) {
          fail(`bad chunked stream: ${(err as Error).message}`);
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const text = head.toString('latin1', 0, Math.min(head.length, 64));
      if (text.startsWith('ICY 200 OK')) {
        // NTRIP 1 casters may start the data right after the status line; the framer drops the blank line if any.
        const eol = head.indexOf('\n');
        if (eol >= 0) begin(head.subarray(eol + 1), false);
        return;
      }
      const end = headEnd(head);
      if (end < 0) {
        if (head.length > deps.limits.maxHeadBytes) fail('upstream answer too long');
        return;
      }
      const responseHead = head.subarray(0, end).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(responseHead);
      if (status?.[1] === '200') {
        begin(head.subarray(end), /^transfer-encoding:\s*chunked/im.test(responseHead));
      } else if (responseHead.startsWith('SOURCETABLE')) {
        fail(`upstream has no mountpoint ${config.upstreamMountpoint}`);
      } else {
        fail(`upstream answered '${responseHead.split(/\r?\n/)[0]?.slice(0, 80)}'`);
      }
    });
  }
}

/** Keeps one client per pull feed of the catalogue, starting and stopping them as the catalogue changes. */
export class PullManager {
  private clients = new Map<string, PullClient>();
  private timer: ClockTimer | null = null;

  constructor(private readonly deps: PullDeps) {}

  start(): void {
    void this.refresh();
    this.timer = this.deps.clock.setInterval(() => void this.refresh(), this.deps.limits.pullRefreshMs);
  }

  stop(): void {
    if (this.timer) this.deps.clock.clear(this.timer);
    for (const client of this.clients.values()) client.stop();
    this.clients.clear();
  }

  async refresh(): Promise<void> {
    let configs: PullFeedConfig[];
    try {
      configs = await this.deps.list();
    } catch (err) {
      this.deps.logger.error({ err }, 'pull feed list could not be read');
      return;
    }
    const wanted = new Map(configs.map((c) => [c.mountpoint.toLowerCase(), c]));
    for (const [key, client] of this.clients) {
      const config = wanted.get(key);
      if (!config || JSON.stringify(config) !== JSON.stringify(client.config)) {
        client.stop();
        this.clients.delete(key);
      }
    }
    for (const [key, config] of wanted) {
      if (this.clients.has(key)) continue;
      const client = new PullClient(config, this.deps);
      this.clients.set(key, client);
      client.start();
    }
  }
}
