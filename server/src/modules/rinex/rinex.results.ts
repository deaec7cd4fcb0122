import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Where finished jobs' zips are kept until they expire. Keys are job ids (UUIDs), never client text. */
export interface RinexResultStore {
  /** Takes the finished zip at `file` (moved, or copied when on another disk). */
  put(jobId: string, file: string): Promise<void>;
  /** The zip's bytes, or null when it is not (or no longer) there. */
  open(jobId: string): Promise<{ stream: Readable; bytes: number } | null>;
  remove(jobId: string): Promise<void>;
}

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function fileOf(dir: string, jobId: string): string {
  if (!JOB_ID.test(jobId)) throw new Error(`rinex results: not a job id: ${JSON.stringify(jobId)}`);
  return join(dir, `${jobId}.zip`);
}

/** A local directory (RINEX_RESULTS_DIR). */
export function localResultStore(dir: string): RinexResultStore {
  return {
    async put(jobId, file) {
      await mkdir(dir, { recursive: true });
      const target = fileOf(dir, jobId);
      try {
        await rename(file, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(file, `${target}.part`);
        await rename(`${target}.part`, target);
        await rm(file, { force: true });
      }
    },
    async open(jobId) {
      const file = fileOf(dir, jobId);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), bytes: size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(jobId) {
      await rm(fileOf(dir, jobId), { force: true });
    },
  };
}
