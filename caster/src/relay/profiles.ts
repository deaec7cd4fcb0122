import { createProfileEncoder, frameMessageType, type ProfileEncoder } from '@portal/gnss';
import type { CatalogueMountpoint, ProfileConstellation, RtcmProfile } from '../ports.ts';
import { Frame } from '../rtcm.ts';

/** What one rover gets (issue 36, ADR 0088): its account's profile and constellations, or its mountpoint suffix's. */
export interface RoverOutput {
  readonly profile: RtcmProfile;
  /** null: every constellation the station sends. */
  readonly constellations: readonly ProfileConstellation[] | null;
  /**
   * Rovers with the same key share one encoder and its frames; null for the station's own frames, byte for byte
   * (as-sent with every constellation), which go out on the relay's fast path untouched.
   */
  readonly key: string | null;
}

export const AS_SENT: RoverOutput = { profile: 'as-sent', constellations: null, key: null };

/**
 * Mountpoint suffixes that choose a profile for clients that can change nothing but the mountpoint (the contract's
 * PROFILE_MOUNTPOINT_SUFFIXES, which the connection card shows): `{MOUNTPOINT}_MSM4`, `{NETWORK}_NEAR_LEGACY`.
 */
export const PROFILE_SUFFIXES: ReadonlyArray<readonly [suffix: string, profile: RtcmProfile]> = [
  ['_MSM4', 'msm4'],
  ['_LEGACY', 'legacy'],
];

/** The mountpoint without a profile suffix and the profile that suffix chooses; null when it has none. */
export function splitProfileSuffix(mountpoint: string): { base: string; profile: RtcmProfile | null } {
  const upper = mountpoint.toUpperCase();
  for (const [suffix, profile] of PROFILE_SUFFIXES) {
    if (upper.length > suffix.length && upper.endsWith(suffix)) {
      return { base: mountpoint.slice(0, -suffix.length), profile };
    }
  }
  return { base: mountpoint, profile: null };
}

/** The output a rover gets; the same settings always make the same key (constellations in a fixed order). */
export function roverOutput(
  profile: RtcmProfile | undefined,
  constellations: readonly ProfileConstellation[] | null | undefined,
): RoverOutput {
  const chosen = profile ?? 'as-sent';
  const filter = constellations?.length ? ORDER.filter((c) => constellations.includes(c)) : null;
  if (chosen === 'as-sent' && filter === null) return AS_SENT;
  return { profile: chosen, constellations: filter, key: filter ? `${chosen}:${filter.join(',')}` : chosen };
}

const ORDER: readonly ProfileConstellation[] = ['GPS', 'GLO', 'GAL', 'BDS', 'QZS', 'IRN', 'SBAS'];

/** A station's position and antenna in an encoded output: what a NEAR rover switching to the station gets first. */
export const OUTPUT_STATION_MESSAGES = [1005, 1006, 1008, 1033];

/**
 * One encoded output of a station: the encoder of one profile, fed each of the station's frames once whatever
 * the number of its rovers, and the rovers (R) that share what it makes.
 */
export class ProfileStream<R> {
  readonly rovers = new Set<R>();
  /** Its last station messages, for a NEAR rover that switches to the station between two frames. */
  readonly cached = new Map<number, Frame>();
  private readonly encoder: ProfileEncoder;

  constructor(
    readonly output: RoverOutput,
    /** The station in the catalogue: its antenna is injected as 1008 (and 1033 where the station sends none). */
    station: Pick<CatalogueMountpoint, 'antenna' | 'str'>,
  ) {
    this.encoder = createProfileEncoder({
      profile: output.profile,
      constellations: output.constellations,
      // Setup ID 0: the catalogue keeps no setup number, and 0 is the standard's "use standard IGS model".
      antenna: station.antenna ? { descriptor: station.antenna, setupId: 0 } : null,
      receiver: station.str.receiver ? { type: station.str.receiver } : null,
    });
  }

  /**
   * What this output makes of one station frame, as one frame to write (null when it makes none). Several frames (a
   * 1005 and its injected 1008, or an observation held to close its epoch and those behind it) go out joined, so
   * each rover costs one write per station frame as on the fast path: a second write to every rover was what made
   * the 1005's fan-out the slowest of the station's frames (docs/performance.md, RTCM profiles).
   */
  encode(frame: Frame): Frame | null {
    let made: Uint8Array[];
    try {
      made = this.encoder.push(frame.data);
    } catch {
      // A frame the encoder cannot take costs this output that frame, never the station's other rovers.
      return null;
    }
    for (const bytes of made) {
      const type = frameMessageType(bytes);
      // Kept beyond this frame: a copy, as the encoder may hand on a view of the socket chunk the frame came in.
      if (OUTPUT_STATION_MESSAGES.includes(type)) this.cached.set(type, new Frame(Buffer.from(bytes)));
    }
    if (made.length === 0) return null;
    const only = made.length === 1 ? (made[0] as Uint8Array) : null;
    return new Frame(only ? Buffer.from(only.buffer, only.byteOffset, only.byteLength) : Buffer.concat(made));
  }
}
