import type { CasterLimits } from '../limits.ts';
import type { Mount } from './mount.ts';

/** How a station's state is read from its data and from the other nodes' announcements (issue 17, ADR 0023). */
export function stationState(limits: Pick<CasterLimits, 'stationOnlineWindowMs' | 'announceIntervalMs'>) {
  /** Status from data: fed here, and a valid frame arrived within the online window. */
  const receiving = (mount: Mount, now: number) =>
    mount.source !== null && mount.sourceDataAt !== null && now - mount.sourceDataAt < limits.stationOnlineWindowMs;
  /** Fed here, or by a node that announced it within three announcements. */
  const isOnline = (mount: Mount, now: number) =>
    mount.source !== null || (mount.remoteNode !== null && now - mount.remoteSeenAt < limits.announceIntervalMs * 3);
  /**
   * What the nearest-station choice counts as online: data flowing (ADR 0023), not only a source connected. A station
   * fed here needs a valid frame within the online window and must not be failing its integrity checks (issue 33);
   * one fed on another node, that node's word for the same.
   */
  const flowing = (mount: Mount, now: number) =>
    mount.source !== null ? receiving(mount, now) && !mount.excluded : mount.remoteFlowing && isOnline(mount, now);
  return { receiving, isOnline, flowing };
}
