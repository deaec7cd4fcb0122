import type { CasterPorts, PullFeedConfig, RefusalRecord, SessionRecord, SessionStartRecord } from '@portal/caster';
import { describeReferenceFrame } from '@portal/contract';
import { verifyPassword } from '../../shared/password-hash.ts';
import { createFeedCipher } from '../catalogue/index.ts';
import type { AccountFact } from '../webhooks/index.ts';
import type { Authorizer } from './ntrip.authorizer.ts';
import type { NtripRepo } from './ntrip.repo.ts';

export interface PortsOptions {
  repo: NtripRepo;
  authorizer: Authorizer;
  feedSecretKey: string;
  /** Base of the NET record's web addresses (the portal's marketplace). */
  publicUrl: string;
  onError?: (err: unknown, what: string) => void;
  /** Writes the caster's aggregated refused attempts (ntrip.refusals.ts). */
  recordRefusals?: (records: RefusalRecord[]) => Promise<void>;
  /** Reports session starts and ends to the webhooks of the accounts' owners (issue 37). */
  accountEvents?: (facts: AccountFact[]) => Promise<void>;
}

/** One key per session, from what its start and its end both carry. */
const sessionKey = (r: { accountId: string; startedAt: Date; remoteAddress: string; mountpoint: string }) =>
  `${r.accountId}:${r.startedAt.getTime()}:${r.remoteAddress}:${r.mountpoint}`;

const startedFact = (r: SessionStartRecord): AccountFact => ({
  accountId: r.accountId,
  event: 'session.started',
  key: `session-started:${sessionKey(r)}`,
  data: {
    mountpoint: r.mountpoint,
    remoteAddress: r.remoteAddress,
    userAgent: r.userAgent,
    startedAt: r.startedAt.toISOString(),
  },
});

const endedFact = (r: SessionRecord): AccountFact => ({
  accountId: r.accountId,
  event: 'session.ended',
  key: `session-ended:${sessionKey(r)}`,
  data: {
    mountpoint: r.mountpoint,
    remoteAddress: r.remoteAddress,
    userAgent: r.userAgent ?? null,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt.toISOString(),
    endReason: r.endReason,
    bytesSent: r.bytesSent,
    servedStation: r.servedStation ?? null,
    distanceKm: r.distanceKm ?? null,
    lastPosition: r.lastGga,
    fixedShare: r.fixedShare ?? null,
    floatShare: r.floatShare ?? null,
  },
});

/** The caster's ports over the database. */
export function createCasterPorts(options: PortsOptions): CasterPorts {
  const { repo } = options;
  const cipher = createFeedCipher(options.feedSecretKey);
  const marketplace = new URL('/marketplace', options.publicUrl).toString();
  // The events are written after the facts: a failure to write them is logged and loses no session.
  const reportEvents = async (facts: AccountFact[], what: string) => {
    try {
      await options.accountEvents?.(facts);
    } catch (err) {
      options.onError?.(err, `webhook events (${what}) not recorded`);
    }
  };

  return {
    auth: options.authorizer,
    catalogue: {
      async snapshot() {
        const [networks, stations] = await Promise.all([repo.snapshotNetworks(), repo.snapshotStations()]);
        return {
          networks: networks.map((n) => ({
            slug: n.slug,
            name: n.name,
            operator: n.operator,
            webUrl: marketplace,
            listed: n.is_public,
            frame: n.reference_frame ? describeReferenceFrame(n.reference_frame) : null,
            integrity: {
              movedHorizontalM: n.integrity_moved_horizontal_m,
              movedVerticalM: n.integrity_moved_vertical_m,
              goodPeriodMs: n.integrity_good_period_s * 1000,
            },
          })),
          mountpoints: stations.map((s) => ({
            mountpoint: s.mountpoint,
            network: s.network_slug,
            latitude: s.latitude,
            longitude: s.longitude,
            heightM: s.height_m,
            antenna: s.antenna,
            integrity: { override: s.integrity_override, surveyRevision: s.survey_revision },
            str: {
              identifier: s.identifier,
              format: s.format,
              formatDetails: s.format_details,
              carrier: s.carrier,
              navSystem: s.nav_system,
              country: s.country,
              receiver: s.receiver,
              bitrate: s.bitrate,
            },
          })),
        };
      },
      async verifySourcePassword(mountpoint, password) {
        const hash = await repo.pushFeedHash(mountpoint);
        return hash !== null && verifyPassword(password, hash);
      },
      async pullFeeds() {
        const feeds: PullFeedConfig[] = [];
        for (const row of await repo.pullFeeds()) {
          let password: string | null = null;
          try {
            password = row.upstream_password_enc ? cipher.decrypt(row.upstream_password_enc, row.id) : null;
          } catch (err) {
            // A key change leaves old ciphertexts unreadable: skip that feed and say so, keep the others.
            options.onError?.(err, `pull feed ${row.mountpoint}: upstream password cannot be decrypted`);
            continue;
          }
          feeds.push({
            mountpoint: row.mountpoint,
            host: row.upstream_host,
            port: row.upstream_port,
            upstreamMountpoint: row.upstream_mountpoint,
            username: row.upstream_username || null,
            password,
            ntripVersion: row.upstream_ntrip_version === 1 ? 1 : 2,
          });
        }
        return feeds;
      },
    },
    usage: {
      async recordSessions(records) {
        const rows = records.map((r) => ({
          account_id: r.accountId,
          mountpoint: r.mountpoint,
          remote_address: r.remoteAddress,
          started_at: r.startedAt,
          ended_at: r.endedAt,
          bytes_sent: r.bytesSent,
          end_reason: r.endReason,
          last_gga_lat: r.lastGga?.latitude ?? null,
          last_gga_lon: r.lastGga?.longitude ?? null,
          user_agent: r.userAgent ?? null,
          served_station: r.servedStation ?? null,
          distance_km: r.distanceKm ?? null,
          fixed_share: r.fixedShare ?? null,
          float_share: r.floatShare ?? null,
          rtcm_profile: r.rtcmProfile ?? null,
        }));
        try {
          await repo.insertSessions(rows);
        } catch (batchError) {
          // One bad row (an account deleted meanwhile) must not lose the batch: keep every row that can be kept.
          let lost = 0;
          for (const row of rows) {
            await repo.insertSessions([row]).catch(() => lost++);
          }
          if (lost > 0) options.onError?.(batchError, `connection log: ${lost} of ${rows.length} sessions not written`);
        }
        await reportEvents(records.map(endedFact), 'session.ended');
      },
      recordSessionStarts:
        options.accountEvents && ((records) => reportEvents(records.map(startedFact), 'session.started')),
      recordRefusals: options.recordRefusals,
      async stationStatus(updates) {
        for (const u of updates) await repo.reportStationStatus(u.mountpoint, u);
      },
      async stationIntegrity(updates) {
        for (const u of updates) {
          await repo.reportStationIntegrity(u.mountpoint, {
            state: u.state,
            reasons: u.reasons.map((r) => ({ ...r, since: r.since.toISOString() })),
            excluded: u.excluded,
            position: u.position,
          });
        }
      },
      async feedStatus(update) {
        await repo.recordFeedStatus(update.mountpoint, update.status, update.lastError);
      },
    },
  };
}
