import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/** The balancers whose PROXY protocol headers the caster believes (issue 34), and the drain time. */
const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };

describe('CASTER_TRUSTED_PROXIES, CASTER_DRAIN_SECONDS and CASTER_BUS_REPLICAS', () => {
  it('reads addresses and CIDR ranges, IPv4 and IPv6; unset trusts none', () => {
    expect(loadConfig({ ...base }).CASTER_TRUSTED_PROXIES).toBeUndefined();
    expect(
      loadConfig({ ...base, CASTER_TRUSTED_PROXIES: '10.0.0.5, 192.168.10.0/24,fd00::/8' }).CASTER_TRUSTED_PROXIES,
    ).toEqual(['10.0.0.5', '192.168.10.0/24', 'fd00::/8']);
    expect(loadConfig({ ...base }).CASTER_DRAIN_SECONDS).toBe(30);
    expect(loadConfig({ ...base, CASTER_DRAIN_SECONDS: '120' }).CASTER_DRAIN_SECONDS).toBe(120);
  });

  it.each(['balancer.example', 'loopback', '10.0.0.0/33', '10.0.0.1/8/1', '*'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => loadConfig({ ...base, CASTER_TRUSTED_PROXIES: value })).toThrow(/CASTER_TRUSTED_PROXIES/);
    },
  );

  it('keeps one JetStream copy unless told (a single NATS server refuses more), at most five', () => {
    expect(loadConfig({ ...base }).CASTER_BUS_REPLICAS).toBe(1);
    expect(loadConfig({ ...base, CASTER_BUS_REPLICAS: '3' }).CASTER_BUS_REPLICAS).toBe(3);
    for (const value of ['0', '6', 'three'])
      expect(() => loadConfig({ ...base, CASTER_BUS_REPLICAS: value })).toThrow(/CASTER_BUS_REPLICAS/);
  });
});
