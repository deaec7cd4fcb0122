import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthDecision, type Caster, type CasterLimits, createCaster, type Logger } from '../src/index.ts';
import { Peer, roverRequest } from './support/client.ts';
import { FakePorts, slowDecisions } from './support/fakes.ts';
import { forTransport, plainPort, TRANSPORTS } from './support/transports.ts';
import { until } from './support/wait.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function ports(maxConnections = 1) {
  const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
  p.accounts.push({
    username: 'alice',
    password: 'alice-pw',
    accountId: 'acc-alice',
    networks: ['nl'],
    maxConnections,
  });
  return p;
}

class Lines implements Logger {
  lines: Array<{ level: string; message: string; fields: object }> = [];
  info = (fields: object, message: string) => void this.lines.push({ level: 'info', message, fields });
  warn = (fields: object, message: string) => void this.lines.push({ level: 'warn', message, fields });
  error = (fields: object, message: string) => void this.lines.push({ level: 'error', message, fields });
}

async function start(p: FakePorts, limits: Partial<CasterLimits> = {}, logger: Logger = new Lines()) {
  const caster: Caster = await createCaster({ ports: p, limits, logger, ...plainPort });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  return { caster, port };
}

/** Sends `count` logins at once and waits for every answer's head (or the close of a refused one). */
async function burst(port: number, count: number, request: (i: number) => string): Promise<Peer[]> {
  const peers = await Promise.all(Array.from({ length: count }, () => Peer.connect(port)));
  open.push(...peers);
  for (const [i, peer] of peers.entries()) peer.write(request(i));
  await Promise.all(peers.map((peer) => peer.until((x) => x.closed || x.text().includes('\r\n\r\n'), 'an answer')));
  return peers;
}

const admitted = (peers: Peer[]) => peers.filter((p) => /^(ICY 200 OK|HTTP\/1\.1 200 OK)/.test(p.text()));
const status = (p: Peer) => /^(?:HTTP\/1\.[01]|ICY) (\d{3})/.exec(p.text())?.[1];

describe.each(TRANSPORTS)('the plain port through %s', (transport) => {
  forTransport(transport);

  describe('the connection limit under concurrent logins (issue 31)', () => {
    for (const count of [20, 200]) {
      for (const version of [1, 2] as const) {
        for (const cache of ['cold', 'warm'] as const) {
          it(`admits exactly one of ${count} NTRIP ${version} rovers of a one-connection account (${cache} decisions)`, async () => {
            const p = ports(1);
            if (cache === 'cold') slowDecisions(p);
            const { caster, port } = await start(p);
            if (cache === 'warm') {
              // One login and logout first, as a decision cache would have it at hand.
              const [first] = await burst(port, 1, () => roverRequest('AMS1', version, ['alice', 'alice-pw']));
              expect(admitted([first as Peer])).toHaveLength(1);
              first?.close();
              await until(() => caster.connectionsByAccount(['acc-alice']).size === 0, 'the first rover to leave');
            }
            const peers = await burst(port, count, () => roverRequest('AMS1', version, ['alice', 'alice-pw']));
            expect(admitted(peers)).toHaveLength(1);
            expect(peers.filter((x) => status(x) === '429')).toHaveLength(count - 1);
            expect(caster.connectionsByAccount(['acc-alice']).get('acc-alice')).toBe(1);
          });
        }
      }
    }

    it('gives a failed login its connection back: the next rover is let in', async () => {
      const p = ports(1);
      slowDecisions(p);
      const { caster, port } = await start(p);
      // A rover that hangs up while its decision is on its way must not keep the account's one connection.
      const [gone] = await Promise.all([Peer.connect(port)]);
      open.push(gone as Peer);
      gone?.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      await until(() => p.authorizeCalls === 1, 'the login to be checked');
      gone?.close();
      await new Promise((resolve) => setTimeout(resolve, 60));
      const [next] = await burst(port, 1, () => roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      expect(admitted([next as Peer])).toHaveLength(1);
      expect(caster.connectionsByAccount(['acc-alice']).get('acc-alice')).toBe(1);
    });

    it('trims an account past its limit at the access check (the limit lowered), keeping the oldest rover', async () => {
      const p = ports(2);
      const { caster, port } = await start(p, { accessRecheckMs: 300 });
      const [older] = await burst(port, 1, () => roverRequest('AMS1', 2, ['alice', 'alice-pw']));
      const [newer] = await burst(port, 1, () => roverRequest('AMS1', 1, ['alice', 'alice-pw']));
      expect(admitted([older as Peer, newer as Peer])).toHaveLength(2);
      (p.accounts[0] as { maxConnections: number }).maxConnections = 1;
      await (newer as Peer).closedWith('the newer rover to be cut');
      expect(older?.closed).toBe(false);
      expect(caster.connectionsByAccount(['acc-alice']).get('acc-alice')).toBe(1);
    });
  });

  describe('the failed-login throttle under parallel guesses (issue 31)', () => {
    it('checks at most 5 of 200 parallel wrong passwords for one account', async () => {
      const p = ports(1);
      slowDecisions(p);
      const { port } = await start(p);
      const peers = await burst(port, 200, (i) => roverRequest('AMS1', 2, ['alice', `wrong-${i}`]));
      expect(p.authorizeCalls).toBe(5);
      expect(peers.filter((x) => status(x) === '401')).toHaveLength(5);
      expect(peers.filter((x) => status(x) === '429')).toHaveLength(195);
    });

    it('checks at most 300 of 500 parallel unknown usernames from one address', async () => {
      const p = ports(1);
      slowDecisions(p, 100);
      const { port } = await start(p);
      const peers = await burst(port, 500, (i) => roverRequest('AMS1', 1, [`nobody-${i}`, 'pw']));
      expect(p.authorizeCalls).toBe(300);
      expect(peers.filter((x) => status(x) === '429')).toHaveLength(200);
    });

    it('lets 50 rovers of a fleet behind one address log in at once with the right password', async () => {
      const p = ports(50);
      slowDecisions(p);
      const { port } = await start(p);
      expect(admitted(await burst(port, 50, () => roverRequest('AMS1', 2, ['alice', 'alice-pw'])))).toHaveLength(50);
    });
  });

  describe('control characters in NTRIP credentials (issue 31)', () => {
    it('answers a NUL in the username or password with a plain 401, no error logged, and throttles it', async () => {
      const p = ports(1);
      const log = new Lines();
      const { port } = await start(p, {}, log);
      const nul = await burst(port, 1, () => roverRequest('AMS1', 2, ['ali\0ce', 'alice-pw']));
      expect(nul[0]?.text()).toMatch(/^HTTP\/1\.1 401 /);
      expect(nul[0]?.text()).toContain('WWW-Authenticate: Basic realm="/AMS1"');
      const v1 = await burst(port, 1, () => roverRequest('AMS1', 1, ['alice', 'pw\r\u0001']));
      expect(v1[0]?.text()).toMatch(/^HTTP\/1\.[01] 401 /);
      expect(p.authorizeCalls).toBe(0);
      // Counted as failures: the pair (this address, "alice") is throttled after five of them.
      const more = await burst(port, 8, () => roverRequest('AMS1', 2, ['alice', '\0']));
      expect(more.filter((x) => status(x) === '429').length).toBeGreaterThan(0);
      expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
    });
  });
});

describe('admission accounting, any interleaving (fast-check)', () => {
  const MAX: Record<string, number> = { a: 1, b: 2 };
  /** Logins of one `batch` get their decisions in the same turn, as from one shared lookup. */
  type Step = { account: 'a' | 'b'; outcome: 'allow' | 'deny' | 'error'; leave: boolean; batch: number };

  it('keeps every account at or under its limit whatever the order of decisions, failures and hang-ups', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(
          fc.record({
            account: fc.constantFrom('a' as const, 'b' as const),
            outcome: fc.constantFrom('allow' as const, 'allow' as const, 'deny' as const, 'error' as const),
            leave: fc.boolean(),
            batch: fc.nat(3),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        async (s, steps: Step[]) => {
          const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
          for (const account of ['a', 'b'])
            p.accounts.push({
              username: account,
              password: 'pw',
              accountId: account,
              networks: ['nl'],
              maxConnections: MAX[account] as number,
            });
          const decide = p.auth.authorize;
          let calls = 0;
          const batches = new Map<number, Promise<void>>();
          p.auth.authorize = async (username, password, mountpoint): Promise<AuthDecision> => {
            calls++;
            const step = steps[Number(password)] as Step;
            let batch = batches.get(step.batch);
            if (!batch) {
              batch = s.schedule(Promise.resolve(), `batch ${step.batch}`);
              batches.set(step.batch, batch);
            }
            await batch;
            if (step.outcome === 'error') throw new Error('database gone');
            return decide(username, step.outcome === 'allow' ? 'pw' : 'wrong', mountpoint);
          };
          const { caster, port } = await start(p, { failedLoginsPerPair: 1000 });
          const peers = await Promise.all(steps.map(() => Peer.connect(port)));
          open.push(...peers);
          for (const [i, peer] of peers.entries())
            peer.write(roverRequest('AMS1', 2, [steps[i]?.account ?? 'a', String(i)]));
          // Hang-ups happen at a point the scheduler picks among the decisions.
          const leaving = steps.flatMap((step, i) =>
            step.leave ? [s.schedule(Promise.resolve(i), `leave #${i}`).then(() => peers[i]?.close())] : [],
          );
          await until(() => calls === steps.length, 'every login to reach its decision');
          const within = () => {
            const held = caster.connectionsByAccount(['a', 'b']);
            for (const account of ['a', 'b'])
              expect(held.get(account) ?? 0).toBeLessThanOrEqual(MAX[account] as number);
          };
          while (s.count() > 0) {
            await s.waitOne();
            await new Promise((resolve) => setTimeout(resolve, 1));
            within();
          }
          await Promise.all(leaving);
          await Promise.all(peers.map((x) => x.until((y) => y.closed || y.text().includes('\r\n\r\n'), 'an answer')));
          within();
          for (const account of ['a', 'b']) {
            const streaming = peers.filter((x, i) => steps[i]?.account === account && !x.closed && status(x) === '200');
            expect(streaming.length).toBeLessThanOrEqual(MAX[account] as number);
          }
          // Nothing leaked: once everyone hung up, each account's whole limit is free again.
          for (const x of peers) x.close();
          await until(() => caster.connectionsByAccount(['a', 'b']).size === 0, 'every rover to leave');
          p.auth.authorize = decide;
          for (const account of ['a', 'b']) {
            const again = await burst(port, MAX[account] as number, () => roverRequest('AMS1', 2, [account, 'pw']));
            expect(admitted(again)).toHaveLength(MAX[account] as number);
          }
          await caster.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
