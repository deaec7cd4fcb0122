import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/index.ts';
import { LoginThrottle } from '../src/login-throttle.ts';

let guesses = 0;

function throttle() {
  const clock = { now: 0 };
  const lines: Array<{ fields: object; message: string }> = [];
  const log = (fields: object, message: string) => lines.push({ fields, message });
  const throttle = new LoginThrottle(DEFAULT_LIMITS, { info: log, warn: log, error: log }, () => clock.now);
  const t = {
    /** Why a new guess would be refused now, or null (the guess is then given back). */
    refusal(ip: string, name: string) {
      const attempt = throttle.attempt(ip, name, `guess-${++guesses}`);
      if (typeof attempt === 'string') return attempt;
      attempt.settled();
      return null;
    },
    /** A wrong password checked and counted. */
    failed(ip: string, name: string) {
      const attempt = throttle.attempt(ip, name, `guess-${++guesses}`);
      if (typeof attempt === 'string') throw new Error(`refused: ${attempt}`);
      attempt.failed();
    },
  };
  return { t, throttle, clock, lines };
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
    const { t, throttle: th, clock, lines } = throttle();
    for (let i = 0; i < 5; i++) t.failed('10.0.0.1', 'alice');
    for (let i = 0; i < 20; i++) t.refusal('10.0.0.1', 'alice');
    expect(lines.map((l) => l.message)).toEqual(['failed logins throttled']);
    clock.now += 60_000;
    th.sweep();
    expect(lines[1]).toEqual({
      fields: { username: 'alice', refused: 19 },
      message: 'failed logins throttled (last minute)',
    });
  });

  it('counts guesses being checked against the budgets, so parallel guesses cannot outrun them (issue 31)', () => {
    const { throttle: th } = throttle();
    const pending = [];
    for (let i = 0; i < 200; i++) pending.push(th.attempt('10.0.0.1', 'alice', `wrong-${i}`));
    const checked = pending.filter((a) => typeof a !== 'string');
    expect(checked).toHaveLength(DEFAULT_LIMITS.failedLoginsPerPair);
    expect(new Set(pending.filter((a) => typeof a === 'string'))).toEqual(new Set(['pair']));
    // A guess that turned out right gives its place back; the wrong ones lock the pair.
    const [right, ...wrong] = checked as Array<Exclude<(typeof checked)[number], string>>;
    right?.settled();
    expect(typeof th.attempt('10.0.0.1', 'alice', 'another')).toBe('object');
    for (const w of wrong) w.failed();

    const names = [];
    for (let i = 0; i < 500; i++) names.push(th.attempt('10.0.0.2', `nobody-${i}`, 'pw'));
    expect(names.filter((a) => typeof a !== 'string')).toHaveLength(DEFAULT_LIMITS.failedLoginsPerIp);
    expect(names.filter((a) => a === 'address')).toHaveLength(500 - DEFAULT_LIMITS.failedLoginsPerIp);
  });

  it("lets a fleet's rovers sending one password at once share one guess", () => {
    const { throttle: th } = throttle();
    const fleet = Array.from({ length: 50 }, () => th.attempt('10.0.0.3', 'fleet', 'right'));
    expect(fleet.every((a) => typeof a !== 'string')).toBe(true);
    for (const a of fleet) if (typeof a !== 'string') a.settled();
    // Had it been wrong, every one of them counts: the pair is locked after them.
    const wrong = Array.from({ length: 6 }, () => th.attempt('10.0.0.3', 'fleet', 'stale'));
    for (const a of wrong) if (typeof a !== 'string') a.failed();
    expect(th.attempt('10.0.0.3', 'fleet', 'right')).toBe('pair');
  });
});
