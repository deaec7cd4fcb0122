import { readFileSync } from 'node:fs';
import type { ImportReport, Network, Station } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const sapos = readFileSync(new URL('./fixtures/sapos-sourcetable.txt', import.meta.url), 'utf8');

describe(`sourcetable import on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let network: Network;

  const createNetwork = async (name: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks',
      headers: admin.headers,
      payload: { name },
    });
    return res.json() as Network;
  };
  const importText = async (networkId: string, text: string, dryRun = false) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/networks/${networkId}/import-sourcetable`,
      headers: admin.headers,
      payload: { text, dryRun },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ImportReport;
  };
  const stationsOf = async (slug: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/stations?network=${slug}`,
      headers: admin.headers,
    });
    return res.json().items as Station[];
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    network = await createNetwork('SAPOS Germany');
  });
  afterAll(() => t.close());

  it('turns the RTCM 3 STR records of a real caster answer into stations and explains every other line', async () => {
    const report = await importText(network.id, sapos);
    expect(report).toMatchObject({ dryRun: false, created: 3, updated: 0, skipped: 17 });
    expect(report.lines.filter((l) => l.outcome === 'created').map((l) => l.mountpoint)).toEqual([
      'VRS_3_2G',
      'MAC_3_2G',
      'FKP_3_2G',
    ]);
    const eps = report.lines.find((l) => l.mountpoint === 'EPS');
    expect(eps).toMatchObject({ line: 27, outcome: 'skipped' });
    expect(eps?.reason).toContain("'RTCM2.3' is not RTCM 3");
    const cas = report.lines.find((l) => l.line === 8);
    expect(cas).toMatchObject({
      mountpoint: null,
      outcome: 'skipped',
      reason: 'CAS record: only STR records become stations',
    });
    expect(report.lines.find((l) => l.line === 23)?.reason).toBe('NET record: only STR records become stations');
    // The status line and headers of the caster's answer are not records and are not reported.
    expect(report.lines.some((l) => l.line < 8)).toBe(false);

    const stations = await stationsOf(network.slug);
    const mac = stations.find((s) => s.mountpoint === 'MAC_3_2G');
    expect(mac).toMatchObject({
      identifier: 'SAPOS_MAC_3',
      format: 'RTCM 3.1',
      carrier: 2,
      navSystem: 'GPS+GLO',
      country: 'DEU',
      latitude: 52.48,
      longitude: 13.3,
      receiver: 'SAPOS',
      bitrate: 2000,
      status: 'offline',
    });
    expect(mac?.formatDetails).toBe(
      '1004(1), 1005/1006, 1007/1008, 1012(1), 1014(10), 1015/1016/1017(10), 1021, 1023, 1025, 1030, 1031, 1033, 1037/1038/1039(10)',
    );
  });

  it('updates the stations it already has when the same sourcetable comes again, keeping edits it does not own', async () => {
    const [vrs] = (await stationsOf(network.slug)).filter((s) => s.mountpoint === 'VRS_3_2G');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/stations/${vrs?.id}`,
      headers: admin.headers,
      payload: { antenna: 'VIRTUAL', heightM: 40, identifier: 'edited' },
    });
    const report = await importText(network.id, sapos);
    expect(report).toMatchObject({ created: 0, updated: 3, skipped: 17 });
    const after = (await stationsOf(network.slug)).find((s) => s.mountpoint === 'VRS_3_2G');
    expect(after).toMatchObject({ identifier: 'SAPOS_VRS_3', antenna: 'VIRTUAL', heightM: 40, id: vrs?.id });
    expect(await stationsOf(network.slug)).toHaveLength(3);
  });

  it('skips lines it cannot use with the reason, and leaves mountpoints of other networks alone', async () => {
    const other = await createNetwork('Other Import Network');
    const text = [
      'STR;MAC_3_2G;Taken elsewhere;RTCM 3.2;1077(1);2;GPS;X;DEU;52.0;13.0;0;0;R;none;B;N;9600;',
      'STR;GOOD01;Good;RTCM 3.3;1006(10),1077(1);2;GPS+GLONASS+Galileo+BeiDou;X;nld;52.0;4.0;0;0;SEPT POLARX5;none;B;N;9600;',
      'STR;good01;Duplicate;RTCM 3.3;1077(1);2;GPS;X;NLD;52.0;4.0;0;0;R;none;B;N;9600;',
      'STR;BAD NAME;Space;RTCM 3.3;1077(1);2;GPS;X;NLD;52.0;4.0;0;0;R;none;B;N;9600;',
      'STR;FARNORTH;Lat;RTCM 3.3;1077(1);2;GPS;X;NOR;91.0;4.0;0;0;R;none;B;N;9600;',
      'STR;NOWHERE;Zero;RTCM 3.3;1077(1);2;GPS;X;NLD;0.00;0.00;0;0;R;none;B;N;9600;',
      'STR;MARS01;Nav;RTCM 3.3;1077(1);2;GPS+MARS;X;NLD;52.0;4.0;0;0;R;none;B;N;9600;',
      'STR;COUNTRY;Country;RTCM 3.3;1077(1);2;GPS;X;NL;52.0;4.0;0;0;R;none;B;N;9600;',
      'STR;SHORT;Too short;RTCM 3.3',
      'hello world',
    ].join('\r\n');
    const report = await importText(other.id, text);
    expect(report).toMatchObject({ created: 1, updated: 0, skipped: 9 });
    const reasons = Object.fromEntries(report.lines.map((l) => [l.line, l.reason ?? l.outcome]));
    expect(reasons).toEqual({
      1: "mountpoint belongs to network 'sapos-germany'",
      2: 'created',
      3: 'mountpoint already listed on line 2',
      4: expect.stringContaining('not NTRIP-safe'),
      5: expect.stringContaining('latitude'),
      6: expect.stringContaining('placeholder'),
      7: expect.stringContaining('navigation system'),
      8: expect.stringContaining('alpha-3'),
      9: expect.stringContaining('at least 11'),
      10: 'not a sourcetable record (STR, CAS or NET)',
    });
    const [good] = await stationsOf(other.slug);
    expect(good).toMatchObject({
      mountpoint: 'GOOD01',
      country: 'NLD',
      navSystem: 'GPS+GLO+GAL+BDS',
      format: 'RTCM 3.3',
    });
    expect((await stationsOf(network.slug)).find((s) => s.mountpoint === 'MAC_3_2G')?.identifier).toBe('SAPOS_MAC_3');
  });

  it('reports without writing on a dry run', async () => {
    const fresh = await createNetwork('Dry Run Network');
    const text = 'STR;DRY01;Dry;RTCM 3.2;1077(1);2;GPS;X;BEL;50.8;4.4;0;0;R;none;B;N;9600;';
    const report = await importText(fresh.id, text, true);
    expect(report).toMatchObject({ dryRun: true, created: 1, skipped: 0 });
    expect(await stationsOf(fresh.slug)).toEqual([]);
  });

  it('answers 404 for an unknown network and 400 for an empty text', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks/00000000-0000-4000-8000-000000000000/import-sourcetable',
      headers: admin.headers,
      payload: { text: sapos },
    });
    expect(missing.statusCode).toBe(404);
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/admin/networks/${network.id}/import-sourcetable`,
      headers: admin.headers,
      payload: { text: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'validation_failed', field: 'text' });
  });
});
