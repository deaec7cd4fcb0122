import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(__dirname, '../../docs/adr');
const records = readdirSync(dir).filter((name) => /^\d{4}-.+\.md$/.test(name));

/** docs/adr/template.md: every decision record says what it is, whether it holds and since when. */
describe('decision records', () => {
  it.each(records)('%s has the template’s title and a status with a date', (name) => {
    const [title, blank, status] = readFileSync(join(dir, name), 'utf8').split('\n');
    expect(title).toMatch(new RegExp(`^# ${name.slice(0, 4)} \\S`));
    expect(blank).toBe('');
    expect(status).toMatch(/^Status: (proposed|accepted|superseded by \d{4}), \d{4}-\d{2}-\d{2}\b/);
  });

  it('are numbered once each', () => {
    const numbers = records.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
