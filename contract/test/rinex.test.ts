import { describe, expect, it } from 'vitest';
import { createRinexJobBodySchema, defaultRinexPricePerHour, hoursOf, rinexWindowProblem } from '../src/rinex.ts';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-24T10:25:00Z');

describe('rinexWindowProblem', () => {
  it('accepts whole past hours and the hour being recorded', () => {
    expect(rinexWindowProblem(at('2026-11-24T06:00:00Z'), at('2026-11-24T11:00:00Z'), now)).toBeNull();
    expect(rinexWindowProblem(at('2026-11-23T11:00:00Z'), at('2026-11-24T11:00:00Z'), now)).toBeNull();
  });

  it.each([
    ['2026-11-24T06:30:00Z', '2026-11-24T08:00:00Z', 'window_not_whole_hours', 'from'],
    ['2026-11-24T06:00:00Z', '2026-11-24T07:00:01Z', 'window_not_whole_hours', 'to'],
    ['2026-11-24T08:00:00Z', '2026-11-24T08:00:00Z', 'window_end_before_start', 'to'],
    ['2026-11-24T08:00:00Z', '2026-11-24T06:00:00Z', 'window_end_before_start', 'to'],
    ['2026-11-23T09:00:00Z', '2026-11-24T10:00:00Z', 'window_too_long', 'to'],
    ['2026-11-24T11:00:00Z', '2026-11-24T12:00:00Z', 'window_in_future', 'from'],
    ['2026-11-24T09:00:00Z', '2026-11-24T12:00:00Z', 'window_in_future', 'to'],
  ])('refuses %s to %s with %s on %s', (from, to, code, field) => {
    expect(rinexWindowProblem(at(from), at(to), now)).toMatchObject({ code, field });
  });
});

describe('hoursOf', () => {
  it('lists the start of every hour of the window', () => {
    expect(
      hoursOf(at('2026-11-24T22:00:00Z'), at('2026-11-25T01:00:00Z')).map((h) => new Date(h).toISOString()),
    ).toEqual(['2026-11-24T22:00:00.000Z', '2026-11-24T23:00:00.000Z', '2026-11-25T00:00:00.000Z']);
  });
});

describe('defaultRinexPricePerHour', () => {
  it("spreads the network's day price over 24 hours, rounded up; none when the network is not sold by tokens", () => {
    expect(defaultRinexPricePerHour(48)).toBe(2);
    expect(defaultRinexPricePerHour(10)).toBe(1);
    expect(defaultRinexPricePerHour(25)).toBe(2);
    expect(defaultRinexPricePerHour(0)).toBeNull();
  });
});

describe('createRinexJobBodySchema', () => {
  const body = { station: 'AMST00NLD', from: '2026-11-24T06:00:00Z', to: '2026-11-24T08:00:00Z' };

  it('defaults to 30 s and every constellation', () => {
    expect(createRinexJobBodySchema.parse(body)).toMatchObject({
      interval: 30,
      systems: ['G', 'R', 'E', 'C', 'J', 'I', 'S'],
    });
  });

  it.each([
    [{ interval: 10 }, 'interval'],
    [{ systems: [] }, 'systems'],
    [{ systems: ['G', 'G'] }, 'systems'],
    [{ systems: ['X'] }, 'systems'],
    [{ station: '../etc' }, 'station'],
    [{ from: 'yesterday' }, 'from'],
  ])('refuses %j', (change, field) => {
    const result = createRinexJobBodySchema.safeParse({ ...body, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path[0]).toBe(field);
  });
});
