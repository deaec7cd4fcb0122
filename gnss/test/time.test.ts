import { describe, expect, it } from 'vitest';
import {
  addSeconds,
  calendarToGpst,
  diffSeconds,
  gpstToCalendar,
  gpstToUtc,
  leapSecondsAtUtc,
  parseApproxTime,
  resolveBdsTow,
  resolveGlonassTod,
  resolveTow,
  resolveWeek,
  utcToGpst,
} from '../src/time.ts';

describe('GPS time', () => {
  it('converts between the GPST calendar and week / seconds of week', () => {
    // GPS week 2048 (the second 10-bit rollover) began on Sunday 2019-04-07.
    expect(calendarToGpst({ year: 2019, month: 4, day: 7, hour: 0, minute: 0, second: 0 })).toEqual({
      week: 2048,
      tow: 0,
    });
    const t = calendarToGpst({ year: 2022, month: 12, day: 13, hour: 1, minute: 9, second: 22.5 });
    expect(t).toEqual({ week: 2240, tow: 2 * 86400 + 3600 + 9 * 60 + 22.5 });
    expect(gpstToCalendar(t)).toEqual({ year: 2022, month: 12, day: 13, hour: 1, minute: 9, second: 22.5 });
  });

  it('applies the leap seconds of the UTC date', () => {
    expect(leapSecondsAtUtc(Date.UTC(2012, 5, 30, 23, 59, 59) / 1000)).toBe(15);
    expect(leapSecondsAtUtc(Date.UTC(2012, 6, 1) / 1000)).toBe(16);
    const t = utcToGpst(Date.UTC(2022, 11, 13, 1, 9, 0));
    expect(gpstToCalendar(t)).toMatchObject({ hour: 1, minute: 9, second: 18 });
    expect(gpstToUtc(t)).toBe(Date.UTC(2022, 11, 13, 1, 9, 0));
  });

  it('resolves a time of week in the week nearest the reference, across the rollover in both directions', () => {
    const saturdayNight = calendarToGpst({ year: 2012, month: 10, day: 13, hour: 23, minute: 59, second: 44 });
    expect(resolveTow(10, saturdayNight)).toEqual({ week: saturdayNight.week + 1, tow: 10 });
    expect(resolveTow(604_790, addSeconds(saturdayNight, 30))).toEqual({ week: saturdayNight.week, tow: 604_790 });
    expect(diffSeconds(resolveTow(10, saturdayNight), saturdayNight)).toBe(26);
  });

  it('adds BeiDou’s 14 s, unless the receiver already tags BeiDou in GPST', () => {
    const ref = calendarToGpst({ year: 2022, month: 12, day: 13, hour: 1, minute: 9, second: 0 });
    expect(resolveBdsTow(ref.tow - 14, ref)).toEqual(ref);
    expect(resolveBdsTow(ref.tow, ref, true)).toEqual(ref);
    // BDT 604790 of the previous week is 4 s into this GPST week.
    const sunday = calendarToGpst({ year: 2022, month: 12, day: 11, hour: 0, minute: 0, second: 1 });
    expect(resolveBdsTow(604_790, sunday)).toEqual({ week: 2240, tow: 4 });
  });

  it('turns a GLONASS time of day (Moscow) into GPST on the nearest day', () => {
    const ref = utcToGpst(Date.UTC(2022, 11, 13, 1, 9, 0));
    const t = resolveGlonassTod(4 * 3600 + 9 * 60, ref);
    expect(gpstToCalendar(t)).toEqual({ year: 2022, month: 12, day: 13, hour: 1, minute: 9, second: 18 });
    // 23:59:59 Moscow (20:59:59 UTC, 21:00:17 GPST) is the day before when the reference is 00:00:30 Moscow.
    const justAfterMidnight = utcToGpst(Date.UTC(2022, 11, 12, 21, 0, 30));
    expect(gpstToCalendar(resolveGlonassTod(86_399, justAfterMidnight))).toMatchObject({
      day: 12,
      hour: 21,
      minute: 0,
      second: 17,
    });
    // A GLONASS epoch at x.001 s is the very same instant as the GPS epoch at x.001 s, to well below a nanosecond.
    const gps = resolveTow(59_901_001 * 0.001, ref);
    const glo = resolveGlonassTod(70_683_001 * 0.001, gps);
    expect(Math.abs(diffSeconds(glo, gps))).toBeLessThan(1e-9);
  });

  it('restores truncated week numbers of GPS, Galileo and BeiDou near the reference', () => {
    const ref = { week: 2240, tow: 0 };
    expect(resolveWeek(2240 % 1024, 10, ref)).toBe(2240);
    expect(resolveWeek(1023, 10, { week: 2048, tow: 5 })).toBe(2047);
    expect(resolveWeek(2240 - 1024, 12, ref, 1024)).toBe(2240);
    expect(resolveWeek(2240 - 1356, 13, ref, 1356)).toBe(2240);
  });

  it('parses ISO 8601 (UTC) and convbin’s GPST form as the approximate time, and refuses anything else', () => {
    expect(parseApproxTime('2022/12/13 01:09:00')).toEqual({ week: 2240, tow: 176_940 });
    expect(parseApproxTime('2022-12-13T01:09:00Z')).toEqual({ week: 2240, tow: 176_958 });
    expect(parseApproxTime('2022-12-13')).toBeNull();
    expect(parseApproxTime('yesterday')).toBeNull();
  });
});
