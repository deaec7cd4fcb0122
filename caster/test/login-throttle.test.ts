import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/index.ts';
import { LoginThrottle } from '../src/login-throttle.ts';

function throttle() {
  const clock = { now: 0 };
  const lines: Array<{ fields: object; message: string }> = [];
  const log = (fields: object, message: string) => lines.push({ fields, message });
  const t = new LoginThrottle(DEFAULT_LIMITS, { info: log, warn: log, error: log }, () => clock.now);
  return { t, clock, lines };
}

describe('failed-login throttle (ADR 0015)', () => {
  it('locks a failing pair for 1 s, doubling with each further failure up to a minute', () => {
    const { t, clock } = throttle();
    const locks: number[] = [];
    for (let i = 0; i < 12; i++) {
      expect(t.refusal('10.0.0.1', 'alice')).toBeNull();
      t.failed('10.0.0.1', 'alice');
      const start = clock.now;
      while (t.refusal('10.0.0.1', 'alice') === 'pair') clock.now += 100;
      if (clock.now > start) locks.push(clock.now - start);
    }
    expect(locks).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(t.refusal('10.0.0.2', 'alice')).toBeNull();
    expect(t.refusal('10.0.0.1', 'bob')).toBeNull();
  });

  it('past the per-name limit refuses only addresses that failed for the name', () => {
    const { t } = throttle();
    for (let i = 0; i < 50; i++) t.failed(`10.0.1.${i}`, 'Alice');
    expect(t.refusal('10.0.1.7', 'alice')).toBe('name');
    expect(t.refusal('10.0.2.1', 'alice')).toBeNull();
  });

  it('logs a throttled name once a minute with the count refused meanwhile', () => {
    const { t, clock, lines } = throttle();
    for (let i = 0; i < 5; i++) t.failed('10.0.0.1', 'alice');
    for (let i = 0; i < 20; i++) t.refusal('10.0.0.1', 'alice');
    expect(lines.map((l) => l.message)).toEqual(['failed logins throttled']);
    clock.now += 60_000;
    t.sweep();
    expect(lines[1]).toEqual({
      fields: { username: 'alice', refused: 19 },
      message: 'failed logins throttled (last minute)',
    });
  });
});
