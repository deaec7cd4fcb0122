import { describe, expect, it } from 'vitest';
import { chargeFor, classifyHour, priceOf, rinexPricePerHour } from '../src/modules/rinex/rinex.policy.ts';

const H = 3_600_000;
const hour = Date.UTC(2026, 10, 24, 9);
const later = hour + 5 * H;
const row = (firstS: number, lastS: number) => ({
  hour: new Date(hour),
  bytes: 1000,
  firstEpoch: new Date(hour + firstS * 1000),
  lastEpoch: new Date(hour + lastS * 1000),
});

describe('classifyHour', () => {
  it('is full when the epochs reach both ends of the hour, at 1 s and at 30 s', () => {
    expect(classifyHour(hour, row(0, 3599), later)).toMatchObject({ status: 'full', percent: 100 });
    expect(classifyHour(hour, row(0, 3570), later)).toMatchObject({ status: 'full', percent: 100 });
  });

  it('is partial with the share of the hour between the first and last epoch', () => {
    expect(classifyHour(hour, row(0, 899), later)).toMatchObject({ status: 'partial', percent: 25 });
    expect(classifyHour(hour, row(1800, 3599), later)).toMatchObject({ status: 'partial', percent: 50 });
    // A minute of data is still worth showing.
    expect(classifyHour(hour, row(600, 610), later)).toMatchObject({ status: 'partial', percent: 1 });
  });

  it('is none without a row, without epochs, or with epochs outside the hour', () => {
    expect(classifyHour(hour, undefined, later)).toMatchObject({ status: 'none', percent: 0, bytes: 0 });
    expect(classifyHour(hour, { ...row(0, 1), firstEpoch: null, lastEpoch: null }, later)).toMatchObject({
      status: 'none',
    });
    expect(classifyHour(hour, row(-7200, -3700), later)).toMatchObject({ status: 'none' });
  });

  it('says whether the hour is being recorded or has not started', () => {
    expect(classifyHour(hour, row(0, 600), hour + 601_000)).toMatchObject({ recording: true, future: false });
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
