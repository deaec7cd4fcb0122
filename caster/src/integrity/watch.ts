import type { Clock, ClockTimer } from '../clock.ts';
import type { PendingWrites } from '../pending-writes.ts';
import type { CatalogueNetwork, StationIntegrityUpdate, UsagePort } from '../ports.ts';
import type { Mount } from '../relay/mount.ts';
import type { RtcmFramer } from '../rtcm.ts';
import { DEFAULT_INTEGRITY, type IntegrityLevel, type IntegrityReason, StationMonitor } from './monitor.ts';

export interface IntegrityWatchDeps {
  clock: Clock;
  mounts: Map<string, Mount>;
  network(slug: string): CatalogueNetwork | undefined;
  /** A station left or rejoined the nearest-station choice. */
  changed(mount: Mount): void;
  usage: Pick<UsagePort, 'stationIntegrity'>;
  writes: PendingWrites;
}

interface Watched {
  framer: RtcmFramer | null;
  state: IntegrityLevel;
  /** What was last reported, to report only changes. */
  reported: string;
  goodSince: number | null;
  surveyRevision: number;
}

const level = (reasons: IntegrityReason[]): IntegrityLevel =>
  reasons.some((r) => r.level === 'failing') ? 'failing' : reasons.length > 0 ? 'warning' : 'ok';

/**
 * Runs the stations' integrity checks once a second (issue 33, ADR 0063): a failing station leaves the
 * nearest-station choice until it was good for its network's good period (or an admin overrides it), and every
 * change goes to the portal through the usage port.
 */
export class IntegrityWatch {
  private readonly watched = new WeakMap<Mount, Watched>();
  private readonly timer: ClockTimer;

  constructor(private readonly deps: IntegrityWatchDeps) {
    this.timer = deps.clock.setInterval(() => this.evaluateAll(), 1000);
  }

  /** A source attached: the station keeps its history, the new framer counts CRC failures from zero. */
  attached(mount: Mount, framer: RtcmFramer): void {
    mount.monitor ??= new StationMonitor();
    mount.monitor.restartCrc();
    const entry = this.entry(mount);
    entry.framer = framer;
  }

  evaluateAll(): void {
    for (const mount of this.deps.mounts.values()) if (mount.source && mount.monitor) this.evaluate(mount);
  }

  evaluate(mount: Mount): void {
    const monitor = mount.monitor;
    if (!monitor) return;
    const now = this.deps.clock.now();
    const entry = this.entry(mount);
    const network = this.deps.network(mount.info.network);
    const settings = { ...DEFAULT_INTEGRITY, ...network?.integrity };
    const control = mount.info.integrity;
    if (control && control.surveyRevision !== entry.surveyRevision) {
      // Already set on the first look at the station, so a revision the caster started with resets nothing.
      if (entry.surveyRevision >= 0) monitor.resetReference();
      entry.surveyRevision = control.surveyRevision;
    }
    if (entry.framer) monitor.crcFailures(entry.framer.crcFailures, now);
    const reasons = monitor.evaluate(
      now,
      settings,
      {
        latitude: mount.info.latitude,
        longitude: mount.info.longitude,
        heightM: mount.info.heightM ?? null,
        receiver: mount.info.str.receiver,
        antenna: mount.info.antenna ?? '',
      },
      mount.sourceDataAt,
    );
    const state = level(reasons);
    const wasExcluded = mount.excluded;
    if (state === 'failing' && !control?.override) {
      mount.excluded = true;
      entry.goodSince = null;
    } else if (mount.excluded) {
      entry.goodSince ??= now;
      if (control?.override || now - entry.goodSince >= settings.goodPeriodMs) mount.excluded = false;
    }
    entry.state = state;
    const failing = reasons.find((r) => r.level === 'failing');
    mount.integrityNotice = mount.excluded ? `integrity ${failing ? `failing: ${failing.code}` : 'recovering'}` : null;
    if (wasExcluded !== mount.excluded) this.deps.changed(mount);
    const position = monitor.position;
    const key = JSON.stringify([state, mount.excluded, reasons.map((r) => [r.code, r.level, r.since]), position]);
    if (key === entry.reported) return;
    entry.reported = key;
    const update: StationIntegrityUpdate = {
      mountpoint: mount.name,
      state,
      reasons: reasons.map((r) => ({ code: r.code, level: r.level, message: r.message, since: new Date(r.since) })),
      excluded: mount.excluded,
      position: position ? { x: position[0], y: position[1], z: position[2] } : null,
      at: new Date(now),
    };
    const { usage, writes } = this.deps;
    if (usage.stationIntegrity) writes.track(usage.stationIntegrity([update]), 'station integrity');
  }

  stop(): void {
    this.deps.clock.clear(this.timer);
  }

  private entry(mount: Mount): Watched {
    let entry = this.watched.get(mount);
    if (!entry) {
      entry = { framer: null, state: 'ok', reported: '', goodSince: null, surveyRevision: -1 };
      this.watched.set(mount, entry);
    }
    return entry;
  }
}
