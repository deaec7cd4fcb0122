import { afterEach, describe, expect, it } from 'vitest';
import {
  type AuthDecision,
  type Caster,
  type CasterLimits,
  createCaster,
  formatGga,
  type RefusalRecord,
} from '../src/index.ts';
import { MAX_PENDING_REFUSALS, RefusalLog } from '../src/refusals.ts';
import { fixture, Peer, roverRequest } from './support/client.ts';
import { ManualClock } from './support/clock.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

const silent = { info() {}, warn() {}, error() {} };

/** The fake ports, with the denial details the server's authoriser gives and the refused-attempts port. */
class RefusalPorts extends FakePorts {
  refusals: RefusalRecord[] = [];

  constructor() {
    super();
    const plain = this.auth.authorize;
    this.auth = {
      ...this.auth,
      authorize: async (username: string, password: string, mountpoint: string): Promise<AuthDecision> => {
        const decision = await plain(username, password, mountpoint);
        if (decision.allowed) return decision;
        const account = this.accounts.find((a) => a.username === username);
        if (!account) return decision;
        if (decision.reason !== 'no_grant') return { ...decision, accountId: account.accountId };
        const known = this.stations.find((s) => s.mountpoint.toLowerCase() === mountpoint.toLowerCase());
        return known
          ? {
              ...decision,
              accountId: account.accountId,
              network: { slug: known.network, name: known.network.toUpperCase() },
              accessEndedAt: null,
            }
          : { ...decision, accountId: account.accountId };
      },
    };
    this.usage = {
      ...this.usage,
      recordRefusals: async (records: RefusalRecord[]) => {
        this.refusals.push(...records);
      },
    } as FakePorts['usage'];
  }

  /** Attempts per reason for one account, summed over the batches written so far. */
  countOf(reason: string, accountId: string | null = 'acc-alice'): number {
    return this.refusals
      .filter((r) => r.reason === reason && r.accountId === accountId)
      .reduce((sum, r) => sum + r.count, 0);
  }
}

function ports(): RefusalPorts {
  const p = new RefusalPorts();
  p.addNetwork('nl').addNetwork('de').addStation('AMS1', 'nl', 52.37, 4.9).addStation('BER1', 'de', 52.52, 13.4);
  p.accounts.push(
    { username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'] },
    { username: 'dave', password: 'dave-pw', accountId: 'acc-dave', networks: ['nl'], enabled: false },
  );
  return p;
}

async function start(p = ports(), limits: Partial<CasterLimits> = {}, clock?: ManualClock) {
  const caster: Caster = await createCaster({
    ports: p,
    logger: silent,
    clock,
    limits: { refusalFlushMs: 50, firstDataWaitMs: 300, ...limits },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  return { caster, port, ports: p };
}

async function rover(
  port: number,
  mountpoint: string,
  version: 1 | 2,
  credentials?: [string, string],
  extra?: string[],
) {
  const peer = await Peer.connect(port);
  open.push(peer);
  peer.write(roverRequest(mountpoint, version, credentials, extra));
  await peer.until((p) => p.text().includes('\r\n') || p.closed, 'an answer');
  return peer;
}

describe.each([1, 2] as const)('refused attempts, NTRIP %i', (version) => {
  it('names the account, the reason and what the owner needs to fix it', async () => {
    const { port, ports: p } = await start();
    await rover(port, 'AMS1', version, ['alice', 'wrong']);
    await rover(port, 'AMS1', version, ['dave', 'dave-pw']);
    await rover(port, 'BER1', version, ['alice', 'alice-pw']);
    await rover(port, 'NOPE', version, ['alice', 'alice-pw']);
    const first = await rover(port, 'AMS1', version, ['alice', 'alice-pw']);
    expect(first.text()).toMatch(/^(ICY 200 OK|HTTP\/1\.1 200)/);
    const second = await rover(port, 'AMS1', version, ['alice', 'alice-pw']);
    expect(second.text()).toContain('429');
    await until(
      () =>
        ['wrong_password', 'no_access', 'unknown_mountpoint', 'too_many_connections'].every(
          (r) => p.countOf(r) === 1,
        ) && p.countOf('account_disabled', 'acc-dave') === 1,
      'every refusal to be written',
    );
    const of = (reason: string) => p.refusals.find((r) => r.reason === reason) as RefusalRecord;
    expect(of('wrong_password')).toMatchObject({
      scope: 'account',
      usernames: ['alice'],
      mountpoint: 'AMS1',
      remoteAddress: '127.0.0.1',
      userAgent: 'NTRIP test-rover',
      ntripVersion: version,
    });
    expect(of('account_disabled').detail).toEqual({ disabled: 'account' });
    expect(of('no_access')).toMatchObject({
      mountpoint: 'BER1',
      detail: { network: { slug: 'de', name: 'DE' }, accessEndedAt: null },
    });
    expect(of('unknown_mountpoint').mountpoint).toBe('NOPE');
    const limit = of('too_many_connections').detail;
    expect(limit.limit).toBe(1);
    expect(limit.sessions).toEqual([
      { remoteAddress: '127.0.0.1', mountpoint: 'AMS1', since: expect.any(String), userAgent: 'NTRIP test-rover' },
    ]);
  });

  it('lists a rover on a station without a source at once, and keeps it connected', async () => {
    const clock = new ManualClock();
    const { port, ports: p } = await start(ports(), {}, clock);
    const fixed = await rover(port, 'AMS1', version, ['alice', 'alice-pw']);
    expect(fixed.text()).toMatch(/^(ICY 200 OK|HTTP\/1\.1 200)/);
    // One flush of the refused-attempts log, well inside the first-data wait.
    await clock.advance(100);
    await until(() => p.countOf('mountpoint_offline') === 1, 'the offline mountpoint entry');
    expect(p.refusals.find((r) => r.reason === 'mountpoint_offline')).toMatchObject({
      mountpoint: 'AMS1',
      detail: { offlineAtLogin: true },
    });
    // Not listed a second time once the first-data wait has passed.
    await clock.advance(700);
    await new Promise((r) => setTimeout(r, 150));
    expect(p.countOf('mountpoint_offline')).toBe(1);
    expect(fixed.closed).toBe(false);
  });

  it('reports a station whose source sends nothing, and a nearest-station rover without a position', async () => {
    const clock = new ManualClock();
    const { caster, port, ports: p } = await start(ports(), {}, clock);
    const source = await Peer.connect(port);
    open.push(source);
    source.write('SOURCE src-secret /AMS1\r\nSource-Agent: NTRIP test\r\n\r\n');
    await source.until((s) => s.text().includes('ICY 200 OK'), 'source login');
    const fixed = await rover(port, 'AMS1', version, ['alice', 'alice-pw']);
    expect(fixed.closed).toBe(false);
    // The first-data wait, up to one interval of its sweep, then a flush of the refused-attempts log.
    await clock.advance(700);
    await until(() => p.countOf('mountpoint_offline') === 1, 'the offline mountpoint entry');
    expect(p.refusals.find((r) => r.reason === 'mountpoint_offline')).toMatchObject({
      mountpoint: 'AMS1',
      detail: { waitedSeconds: 1 },
    });
    fixed.close();
    await until(() => caster.stats().rovers === 0, 'the first rover to leave');

    const near = await rover(port, 'NL_NEAR', version, ['alice', 'alice-pw']);
    await clock.advance(700);
    await until(() => p.countOf('near_no_position') === 1, 'the no-position entry');
    expect(near.closed).toBe(false);
    expect(p.refusals.find((r) => r.reason === 'near_no_position')?.mountpoint).toBe('NL_NEAR');
  });

  it('lists a nearest-station rover without a position that gave up before the wait, with the seconds it stayed', async () => {
    const clock = new ManualClock();
    const { caster, port, ports: p } = await start(ports(), { firstDataWaitMs: 3000 }, clock);
    const near = await rover(port, 'NL_NEAR', version, ['alice', 'alice-pw']);
    await clock.advance(1200);
    near.close();
    await until(() => caster.stats().rovers === 0, 'the rover to leave');
    await clock.advance(2500);
    await until(() => p.countOf('near_no_position') === 1, 'the no-position entry');
    expect(p.refusals.find((r) => r.reason === 'near_no_position')?.detail).toEqual({ waitedSeconds: 2 });
  });

  it('says nothing about a rover that receives data in time', async () => {
    const clock = new ManualClock();
    const { port, ports: p } = await start(ports(), {}, clock);
    const source = await Peer.connect(port);
    open.push(source);
    source.write('SOURCE src-secret /AMS1\r\nSource-Agent: NTRIP test\r\n\r\n');
    await source.until((s) => s.text().includes('ICY 200 OK'), 'source login');
    const r = await rover(
      port,
      'NL_NEAR',
      version,
      ['alice', 'alice-pw'],
      [`Ntrip-GGA: ${formatGga({ latitude: 52.3, longitude: 4.8 }).trim()}`],
    );
    source.write(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3').subarray(0, 4000));
    await r.until((x) => x.length > 200, 'frames');
    // Past the first-data wait and a flush of the refused-attempts log.
    await clock.advance(600);
    expect(p.refusals).toEqual([]);
  });

  it('lists throttled attempts with the rule that throttled them', async () => {
    const { port, ports: p } = await start();
    for (let i = 0; i < 6; i++) await rover(port, 'AMS1', version, ['alice', 'wrong']);
    await until(() => p.countOf('throttled', null) === 1, 'the throttled entry');
    expect(p.countOf('wrong_password')).toBe(5);
    expect(p.refusals.find((r) => r.reason === 'throttled')).toMatchObject({
      scope: 'name',
      usernames: ['alice'],
      detail: { throttle: 'pair' },
    });
  });

  it('keeps unknown usernames out of every account, per address', async () => {
    // The log is written when the clock says, so both attempts fall in one flush however slow the machine is.
    const clock = new ManualClock();
    const { port, ports: p } = await start(ports(), {}, clock);
    await rover(port, 'AMS1', version, ['mallory', 'guess']);
    await rover(port, 'AMS1', version, ['trudy', 'guess']);
    await clock.advance(60);
    await until(() => p.countOf('unknown_username', null) === 2, 'the unknown-name entries');
    const entries = p.refusals.filter((r) => r.reason === 'unknown_username');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ scope: 'address', remoteAddress: '127.0.0.1', usernames: ['mallory', 'trudy'] });
  });
});

describe('aggregation', () => {
  it('writes 1,000 wrong passwords for one account as a handful of entries', async () => {
    const { port, ports: p } = await start(ports(), { failedLoginsPerPair: 5 });
    const attempts = Array.from({ length: 1000 }, (_, i) => i);
    for (let i = 0; i < attempts.length; i += 50) {
      await Promise.all(attempts.slice(i, i + 50).map(() => rover(port, 'AMS1', 2, ['alice', 'wrong'])));
    }
    await until(() => p.countOf('wrong_password') + p.countOf('throttled', null) === 1000, 'all 1,000 attempts');
    // One entry per reason and minute per flush at most; a test crossing a minute boundary may add one more each.
    const distinct = new Set(p.refusals.map((r) => `${r.reason}\n${r.minute.getTime()}`));
    expect(distinct.size).toBeLessThanOrEqual(4);
  });

  it('folds a storm of made-up names past its bound into one entry', async () => {
    const written: RefusalRecord[] = [];
    const log = new RefusalLog(
      { recordRefusals: async (r) => void written.push(...r) },
      silent,
      60_000,
      new ManualClock(0),
    );
    for (let i = 0; i < MAX_PENDING_REFUSALS + 500; i++) {
      log.record({
        accountId: null,
        username: `name-${i}`,
        reason: 'throttled',
        mountpoint: 'AMS1',
        remoteAddress: '203.0.113.7',
        userAgent: 'x\u0000y',
        ntripVersion: 1,
        tls: false,
        detail: { throttle: 'address' },
      });
    }
    await log.close();
    expect(written).toHaveLength(MAX_PENDING_REFUSALS + 1);
    const overflow = written.find((r) => r.remoteAddress === '*');
    expect(overflow).toMatchObject({ scope: 'address', count: 500, reason: 'throttled', userAgent: 'xy' });
  });
});
