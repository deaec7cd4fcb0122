import { describe, expect, it } from 'vitest';
import { chargeFor, classifyHour, priceOf, rinexPricePerHour } from '../src/modules/rinex/rinex.policy.ts';

const H = 3_600_000;
const hour = Date.UTC(2026, 10, 24, 9);
const later = hour + 5 * H;
/** An index row whose stored epochs fall in the minutes [from, to) of the hour. */
const row = (from: number, to: number) => ({
  hour: new Date(hour),
  bytes: 1000,
  epochMinutes: Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i),
});

describe('classifyHour', () => {
  it('is full only when every minute of the hour holds a stored epoch', () => {
    expect(classifyHour(hour, row(0, 60), later)).toMatchObject({ status: 'full', percent: 100 });
    expect(classifyHour(hour, row(0, 59), later)).toMatchObject({ status: 'partial', percent: 98 });
  });

  it('is partial with the share of minutes holding epochs, gaps inside the hour included', () => {
    expect(classifyHour(hour, row(0, 15), later)).toMatchObject({ status: 'partial', percent: 25 });
    expect(classifyHour(hour, row(30, 60), later)).toMatchObject({ status: 'partial', percent: 50 });
    const gap = { ...row(0, 60), epochMinutes: row(0, 60).epochMinutes.filter((m) => m < 20 || m >= 50) };
    expect(classifyHour(hour, gap, later)).toMatchObject({ status: 'partial', percent: 50 });
    // A minute of data is still worth showing.
    expect(classifyHour(hour, row(10, 11), later)).toMatchObject({ status: 'partial', percent: 2 });
  });

  it('is none without a row or without epochs in the hour', () => {
    expect(classifyHour(hour, undefined, later)).toMatchObject({ status: 'none', percent: 0, bytes: 0 });
    expect(classifyHour(hour, row(0, 0), later)).toMatchObject({ status: 'none' });
  });

  it('merges the minutes of every name the station was archived under without counting one twice', () => {
    const twice = { ...row(0, 30), epochMinutes: [...row(0, 30).epochMinutes, ...row(0, 30).epochMinutes] };
    expect(classifyHour(hour, twice, later)).toMatchObject({ status: 'partial', percent: 50 });
  });

  it('says whether the hour is being recorded or has not started', () => {
    expect(classifyHour(hour, row(0, 10), hour + 601_000)).toMatchObject({ recording: true, future: false });
    expect(classifyHour(hour + H, undefined, hour + 601_000)).toMatchObject({ recording: false, future: true });
  });
});

describe('pricing', () => {
  const network = { status: 'active', token_price_per_day: 48, rinex_price_per_hour: null };

  it("takes the admin's price, else the default from the day price, and none for a retired network", () => {
    expect(rinexPricePerHour(network)).toBe(2);
    expect(rinexPricePerHour({ ...network, rinex_price_per_hour: 7 })).toBe(7);
    expect(rinexPricePerHour({ ...network, rinex_price_per_hour: 0 })).toBe(0);
    expect(rinexPricePerHour({ ...network, token_price_per_day: 0 })).toBeNull();
    expect(rinexPricePerHour({ ...network, status: 'retired', rinex_price_per_hour: 7 })).toBeNull();
  });

  it('charges tokens per hour with data unless an admin, a plan or a price of 0 makes it free', () => {
    expect(chargeFor({ byAdmin: true, planCovers: false, pricePerHour: null })).toBe('admin');
    expect(chargeFor({ byAdmin: false, planCovers: true, pricePerHour: null })).toBe('plan');
    expect(chargeFor({ byAdmin: false, planCovers: false, pricePerHour: null })).toBe('not_for_sale');
    expect(chargeFor({ byAdmin: false, planCovers: false, pricePerHour: 0 })).toBe('free');
    expect(chargeFor({ byAdmin: false, planCovers: false, pricePerHour: 3 })).toBe('tokens');
    expect(priceOf('tokens', 3, 4)).toBe(12);
    expect(priceOf('plan', 3, 4)).toBe(0);
  });
});
