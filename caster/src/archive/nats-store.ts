import {
  connect,
  type JetStreamManager,
  type NatsConnection,
  type ObjectStore,
  StorageType,
  type StoredMsg,
} from 'nats';
import { natsServers } from '../nats-servers.ts';
import { keepReplicas } from '../replicas.ts';
import {
  type ArchiveStore,
  type ArchiveStoreSpec,
  checkKey,
  HOUR_MS,
  type HourKey,
  hourLabel,
  isMountpoint,
  parseHourLabel,
} from './store.ts';

export interface NatsStoreOptions {
  url: string;
  /** Object store bucket (letters, digits, - and _); its tail stream is named after it. */
  bucket: string;
  /** JetStream copies of the store and its tail stream (ADR 0073); 1 when unset. */
  replicas?: number;
}

const BUCKET = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Hours in NATS JetStream, shared by every node on that NATS. An object store cannot append, so an hour lives in two
 * places while it is written: each member is one message of the tail stream (subject `archive-tail.{bucket}.{MOUNT}.
 * {hour}`), acknowledged before `append` resolves, so a crash loses nothing acknowledged; sealing copies the hour's
 * object (if any) and its tail into a new object `{MOUNT}/{hour}` that records the last tail sequence it holds, then
 * purges the tail up to it. A read is the object followed by the tail messages after that sequence, so an hour
 * reads the same before, during and after its sealing.
 */
export async function natsArchiveStore(options: NatsStoreOptions): Promise<ArchiveStore> {
  if (!BUCKET.test(options.bucket)) throw new Error(`archive: not a bucket name: ${JSON.stringify(options.bucket)}`);
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: natsServers(options.url), name: 'portal-archive', maxReconnectAttempts: -1 });
  } catch (err) {
    throw new Error(`archive: cannot connect to NATS at ${options.url}: ${(err as Error).message}`);
  }
  try {
    const js = nc.jetstream();
    const jsm = await nc.jetstreamManager();
    const replicas = options.replicas ?? 1;
    const os = await js.views.os(options.bucket, { storage: StorageType.File, replicas });
    await keepReplicas(jsm, `OBJ_${options.bucket}`, replicas);
    const tail = `ARCHIVE_TAIL_${options.bucket}`;
    const prefix = `archive-tail.${options.bucket}`;
    await ensureStream(jsm, tail, prefix, replicas);
    await keepReplicas(jsm, tail, replicas);
    return new NatsArchiveStore(nc, jsm as DirectGets, os, options, tail, prefix);
  } catch (err) {
    await nc.close();
    throw err;
  }
}

async function ensureStream(jsm: JetStreamManager, name: string, prefix: string, replicas: number) {
  try {
    await jsm.streams.info(name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.streams.add({
      name,
      subjects: [`${prefix}.>`],
      storage: StorageType.File,
      allow_direct: true,
      num_replicas: replicas,
    });
  }
}

/**
 * nats.js has direct gets (the stream's allow_direct) on its manager without declaring them on the interface; a
 * direct get of the next message on a subject reads the tail one member at a time.
 */
type DirectGets = JetStreamManager & {
  direct: { getMessage(stream: string, query: { seq: number; next_by_subj: string }): Promise<StoredMsg> };
};

const isNotFound = (err: unknown) => (err as { code?: string } | null)?.code === '404';
const asBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.length);

/** The object store's meta subject token: the name in padded base64url (NATS ADR-20). */
const metaToken = (name: string) => {
  const plain = Buffer.from(name).toString('base64url');
  return plain.padEnd(Math.ceil(plain.length / 4) * 4, '=');
};

class NatsArchiveStore implements ArchiveStore {
  readonly name: string;
  readonly spec: ArchiveStoreSpec;
  private readonly bucket: string;

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: DirectGets,
    private readonly os: ObjectStore,
    options: NatsStoreOptions,
    private readonly tail: string,
    private readonly prefix: string,
  ) {
    this.bucket = options.bucket;
    this.name = `nats:${options.bucket}`;
    this.spec = { kind: 'nats', url: options.url, bucket: options.bucket, replicas: options.replicas };
  }

  private subject(key: HourKey) {
    checkKey(key);
    return `${this.prefix}.${key.mountpoint}.${hourLabel(key.hour)}`;
  }

  private objectName(key: HourKey) {
    checkKey(key);
    return `${key.mountpoint}/${hourLabel(key.hour)}`;
  }

  async append(key: HourKey, member: Buffer): Promise<void> {
    await this.nc.jetstream().publish(this.subject(key), member);
  }

  /** The object's bytes, then the tail messages after the sequence the object holds, up to `upTo`. */
  private async *readHour(key: HourKey, upTo = Number.POSITIVE_INFINITY): AsyncGenerator<Buffer> {
    const subject = this.subject(key);
    const object = await this.os.get(this.objectName(key));
    let seq = 1;
    if (object) {
      seq = Number(object.info.metadata?.through ?? 0) + 1;
      const reader = object.data.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.length) yield asBuffer(value);
        }
      } finally {
        await reader.cancel().catch(() => {});
      }
      const failed = await object.error;
      if (failed) throw failed;
    }
    while (seq <= upTo) {
      let message: StoredMsg;
      try {
        message = await this.jsm.direct.getMessage(this.tail, { seq, next_by_subj: subject });
      } catch (err) {
        if (isNotFound(err)) break;
        throw err;
      }
      if (message.seq > upTo) break;
      yield asBuffer(message.data);
      seq = message.seq + 1;
    }
  }

  read(key: HourKey): AsyncIterable<Buffer> {
    return this.readHour(key);
  }

  private async lastTailSeq(subject: string): Promise<number | null> {
    try {
      return (await this.jsm.streams.getMessage(this.tail, { last_by_subj: subject })).seq;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async seal(key: HourKey): Promise<void> {
    const subject = this.subject(key);
    const last = await this.lastTailSeq(subject);
    if (last === null) return;
    const name = this.objectName(key);
    const existing = await this.os.info(name);
    if (!existing || Number(existing.metadata?.through ?? 0) < last) {
      const source = this.readHour(key, last);
      const data = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await source.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await source.return(undefined);
        },
      });
      await this.os.put({ name, metadata: { through: String(last) } }, data);
    }
    await this.jsm.streams.purge(this.tail, { filter: subject, seq: last + 1 });
  }

  async release(): Promise<void> {
    // Every member is already in the tail stream; whoever continues the hour appends after it.
  }

  async remove(key: HourKey): Promise<void> {
    const name = this.objectName(key);
    if (await this.os.info(name)) {
      await this.os.delete(name);
      // The delete leaves a marker per name; a month of hours per station would pile them up for good.
      await this.jsm.streams.purge(`OBJ_${this.bucket}`, { filter: `$O.${this.bucket}.M.${metaToken(name)}` });
    }
    await this.jsm.streams.purge(this.tail, { filter: this.subject(key) });
  }

  /** Hours with a tail, from the stream's per-subject counts. */
  private async tailKeys(): Promise<HourKey[]> {
    const info = await this.jsm.streams.info(this.tail, { subjects_filter: `${this.prefix}.>` });
    const keys: HourKey[] = [];
    for (const subject of Object.keys(info.state.subjects ?? {})) {
      const [mountpoint = '', label = ''] = subject.slice(this.prefix.length + 1).split('.');
      const hour = parseHourLabel(label);
      if (isMountpoint(mountpoint) && hour !== null) keys.push({ mountpoint, hour });
    }
    return keys;
  }

  async *list(): AsyncGenerator<HourKey> {
    const seen = new Set<string>();
    for (const info of await this.os.list()) {
      const [mountpoint = '', label = ''] = info.name.split('/');
      const hour = parseHourLabel(label);
      if (!isMountpoint(mountpoint) || hour === null) continue;
      seen.add(info.name);
      yield { mountpoint, hour };
    }
    for (const key of await this.tailKeys()) {
      if (!seen.has(this.objectName(key))) yield key;
    }
  }

  async sealAbandoned(before: number): Promise<number> {
    let sealed = 0;
    for (const key of await this.tailKeys()) {
      if (key.hour + HOUR_MS > before) continue;
      await this.seal(key);
      sealed++;
    }
    return sealed;
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}
