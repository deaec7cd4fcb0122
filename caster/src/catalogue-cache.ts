import type { Clock } from './clock.ts';
import type { CatalogueNetwork, CataloguePort, CatalogueSnapshot } from './ports.ts';
import { Mount, NEAR_SUFFIX } from './relay/mount.ts';
import type { NtripRequest } from './request.ts';
import { sourcetableResponse } from './responses.ts';
import type { Logger } from './session-log.ts';
import {
  type CasterIdentity,
  casRecord,
  filterRecords,
  nearRecord,
  netRecord,
  renderSourcetable,
  strRecord,
} from './sourcetable.ts';

export interface CatalogueCacheDeps {
  catalogue: CataloguePort;
  logger: Logger;
  clock: Clock;
  /** A station left the catalogue: its source and rovers must go. */
  removed(mount: Mount): void;
  /** A station or a network's nearest-station mountpoint left the catalogue. */
  forgotten?(): void;
}

/** The catalogue's networks and stations as the caster serves them, read at start, at an interval and on a miss. */
export class CatalogueCache {
  /** By lower-case mountpoint name. */
  readonly mounts = new Map<string, Mount>();
  /** Network slug by `{SLUG}_NEAR` name. */
  private readonly nearNetworks = new Map<string, string>();
  private networks: CatalogueNetwork[] = [];
  private snapshotAt = 0;

  constructor(private readonly deps: CatalogueCacheDeps) {}

  apply(snapshot: CatalogueSnapshot): void {
    const { mounts, nearNetworks } = this;
    this.networks = snapshot.networks;
    const nearBefore = [...nearNetworks.keys()];
    nearNetworks.clear();
    for (const n of this.networks) nearNetworks.set(`${n.slug.toUpperCase()}${NEAR_SUFFIX}`, n.slug);
    let forgotten = nearBefore.some((name) => !nearNetworks.has(name));
    const seen = new Set<string>();
    for (const info of snapshot.mountpoints) {
      const key = info.mountpoint.toLowerCase();
      seen.add(key);
      const existing = mounts.get(key);
      if (existing && existing.info.network !== info.network) forgotten = true;
      if (existing) existing.info = info;
      else mounts.set(key, new Mount(info));
    }
    for (const [key, mount] of mounts) {
      if (seen.has(key)) continue;
      this.deps.removed(mount);
      mounts.delete(key);
      forgotten = true;
    }
    if (forgotten) this.deps.forgotten?.();
    this.snapshotAt = this.deps.clock.now();
  }

  async refresh(): Promise<void> {
    try {
      this.apply(await this.deps.catalogue.snapshot());
    } catch (err) {
      this.deps.logger.error({ err }, 'catalogue read failed; keeping the previous mountpoints');
    }
  }

  /** The station of a name the cache holds now, or undefined (then resolveMount may read the catalogue). */
  knownMount(name: string): Mount | undefined {
    return this.mounts.get(name.toLowerCase());
  }

  /** An unknown name may be a station created a moment ago: read the catalogue again, at most once a second. */
  async resolveMount(name: string): Promise<Mount | undefined> {
    const key = name.toLowerCase();
    if (!this.mounts.has(key) && this.stale()) await this.refresh();
    return this.mounts.get(key);
  }

  /** The network slug of a nearest-station mountpoint name. */
  async resolveNear(name: string): Promise<string | undefined> {
    const key = name.toUpperCase();
    if (!this.nearNetworks.has(key) && this.stale()) await this.refresh();
    return this.nearNetworks.get(key);
  }

  /** The sourcetable answer: listed networks, their nearest-station mountpoints and stations, filtered as asked. */
  sourcetable(req: NtripRequest, identity: CasterIdentity): Buffer {
    const records: string[][] = [casRecord(identity)];
    const listed = this.networks.filter((n) => n.listed);
    const listedSlugs = new Set(listed.map((n) => n.slug));
    for (const n of listed) records.push(netRecord(n));
    for (const n of listed) {
      const members = [...this.mounts.values()].filter((m) => m.info.network === n.slug);
      const first = members[0];
      if (!first) continue;
      const lat = members.reduce((s, m) => s + m.info.latitude, 0) / members.length;
      const lon = members.reduce((s, m) => s + m.info.longitude, 0) / members.length;
      records.push(
        nearRecord({
          mountpoint: `${n.slug.toUpperCase()}${NEAR_SUFFIX}`,
          network: n,
          latitude: lat,
          longitude: lon,
          country: first.info.str.country,
          navSystem: first.info.str.navSystem,
          format: first.info.str.format,
        }),
      );
    }
    const stations = [...this.mounts.values()].filter((m) => listedSlugs.has(m.info.network));
    for (const m of stations.sort((a, b) => a.name.localeCompare(b.name))) {
      records.push(strRecord(m.info, m.integrityNotice, this.network(m.info.network)?.frame ?? null));
    }
    const chosen = req.ntripVersion === 2 && req.query ? filterRecords(records, req.query) : records;
    return sourcetableResponse(req.ntripVersion, renderSourcetable(chosen));
  }

  network(slug: string): CatalogueNetwork | undefined {
    return this.networks.find((n) => n.slug === slug);
  }

  private stale(): boolean {
    return this.deps.clock.now() - this.snapshotAt > 1000;
  }
}
