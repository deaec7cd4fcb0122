import { createReadStream, fdatasync, write } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../session-log.ts';
import { decodeMemberAsync, MEMBER_HEADER_BYTES, memberLength } from './member.ts';
import { type ArchiveStore, checkKey, type HourKey, hourLabel, isMountpoint, parseHourLabel } from './store.ts';

/**
 * Hours as files under one directory: `{dir}/{MOUNT}/{YYYY-MM-DD}/{MOUNT}_{YYYY-MM-DD}T{HH}.rtcm3.gz`, each a plain
 * gzip file (`zcat` reads it). Members are appended and synced; the first append to an hour in this process first
 * cuts off a member a crash left incomplete, so the next member starts on a boundary.
 */
export function localArchiveStore(dir: string, logger: Logger): ArchiveStore {
  /** Open hours by `{MOUNT}/{hour ms}`: an append finds its file without building its path again. */
  const open_ = new Map<string, Promise<FileHandle>>();
  const idOf = (key: HourKey) => `${key.mountpoint}/${key.hour}`;
  const pathOf = (key: HourKey) => {
    checkKey(key);
    const label = hourLabel(key.hour);
    return join(dir, key.mountpoint, label.slice(0, 10), `${key.mountpoint}_${label}.rtcm3.gz`);
  };

  async function openForAppend(key: HourKey): Promise<FileHandle> {
    const path = pathOf(key);
    await mkdir(join(path, '..'), { recursive: true });
    const file = await open(path, 'a+');
    try {
      const { size } = await file.stat();
      const valid = await validLength(file, size);
      if (valid < size) {
        logger.warn(
          { mountpoint: key.mountpoint, hour: hourLabel(key.hour), cut: size - valid },
          'archive: incomplete member at the end of the hour cut off before appending',
        );
        await file.truncate(valid);
      }
      return file;
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  async function closeKey(key: HourKey) {
    const id = idOf(key);
    const file = open_.get(id);
    if (!file) return;
    open_.delete(id);
    await (await file.catch(() => null))?.close();
  }

  return {
    name: 'local',
    spec: { kind: 'local', dir },
    async append(key, member) {
      const id = idOf(key);
      let file = open_.get(id);
      if (!file) {
        file = openForAppend(key);
        open_.set(id, file);
        file.catch(() => open_.delete(id));
      }
      await appendAndSync((await file).fd, member);
    },
    seal: closeKey,
    release: closeKey,
    async *read(key) {
      const path = pathOf(key);
      const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
      try {
        for await (const chunk of stream) yield chunk as Buffer;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      } finally {
        stream.destroy();
      }
    },
    async remove(key) {
      await closeKey(key);
      const path = pathOf(key);
      await unlink(path).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      // Empty day and station folders go too; a folder that still holds something stays.
      const day = join(path, '..');
      await rmdir(day).catch(() => {});
      await rmdir(join(day, '..')).catch(() => {});
    },
    async *list() {
      const stations = await readdir(dir).catch(() => [] as string[]);
      for (const mountpoint of stations) {
        if (!isMountpoint(mountpoint)) continue;
        const days = await readdir(join(dir, mountpoint)).catch(() => [] as string[]);
        for (const day of days.sort()) {
          const files = await readdir(join(dir, mountpoint, day)).catch(() => [] as string[]);
          for (const file of files.sort()) {
            const prefix = `${mountpoint}_`;
            if (!file.startsWith(prefix) || !file.endsWith('.rtcm3.gz')) continue;
            const hour = parseHourLabel(file.slice(prefix.length, -'.rtcm3.gz'.length));
            if (hour !== null && hourLabel(hour).startsWith(day)) yield { mountpoint, hour };
          }
        }
      }
    },
    async sealAbandoned() {
      // A file needs no sealing: what a crashed writer left is read as it is, its cut member skipped.
      return 0;
    },
    async close() {
      for (const id of [...open_.keys()]) {
        const file = open_.get(id);
        open_.delete(id);
        await (await file?.catch(() => null))?.close();
      }
    },
  };
}

/**
 * Writes a member at the end (the file is opened for appending) and syncs it, with the callback API: one promise
 * per member instead of the promise API's several, which at hundreds of stations is garbage the relay's collector
 * pays for.
 */
function appendAndSync(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      write(fd, data, offset, data.length - offset, null, (err, written) => {
        if (err) return reject(err);
        if (offset + written < data.length) return from(offset + written);
        fdatasync(fd, (syncErr) => (syncErr ? reject(syncErr) : resolve()));
      });
    from(0);
  });
}

/**
 * The length of the file's whole members: member headers are followed by their declared lengths, and the last
 * whole member is inflated and checked (a crash can leave a member's length written and its bytes not).
 */
async function validLength(file: FileHandle, size: number): Promise<number> {
  const header = Buffer.alloc(MEMBER_HEADER_BYTES);
  let offset = 0;
  let last: { offset: number; length: number } | null = null;
  while (offset + MEMBER_HEADER_BYTES <= size) {
    await file.read(header, 0, MEMBER_HEADER_BYTES, offset);
    const length = memberLength(header);
    if (length === null || offset + length > size) break;
    last = { offset, length };
    offset += length;
  }
  if (last) {
    const member = Buffer.alloc(last.length);
    await file.read(member, 0, last.length, last.offset);
    if ((await decodeMemberAsync(member)) === null) return last.offset;
  }
  return offset;
}
