/**
 * The output file gathers text in 1 MB blocks, reused once the stream has written them: a file of several blocks
 * must come out exactly as written, plain and gzip-compressed, and nothing may show under the final name before
 * commit().
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AtomicTextFile } from '../src/rinex/output.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'output-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** About 3.5 MB of numbered lines, some written as text and some as bytes into the block, drained as we go. */
async function fill(file: AtomicTextFile): Promise<string> {
  const expected: string[] = [];
  for (let n = 0; n < 60_000; n++) {
    const line = `${String(n).padStart(8, '0')} ${'x'.repeat(n % 97)}\n`;
    expected.push(line);
    if (n % 2) {
      file.write(line);
    } else {
      file.room(line.length);
      file.pos += file.buf.write(line, file.pos, 'latin1');
    }
    if (n % 1000 === 0) await file.drain();
  }
  return expected.join('');
}

describe('atomic output file', () => {
  it('writes several blocks in order, and shows the file only once committed', async () => {
    const path = join(dir, 'plain.obs');
    const file = new AtomicTextFile(path);
    const expected = await fill(file);
    expect(await readdir(dir)).not.toContain('plain.obs');
    await file.commit();
    const text = await readFile(path, 'latin1');
    expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(text).toBe(expected);
  });

  it('compresses the same text with gzip', async () => {
    const path = join(dir, 'packed.obs.gz');
    const file = new AtomicTextFile(path);
    const expected = await fill(file);
    await file.commit();
    expect(gunzipSync(await readFile(path)).toString('latin1')).toBe(expected);
  });
});
