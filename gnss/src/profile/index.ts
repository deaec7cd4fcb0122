/**
 * RTCM output profiles: what a rover gets from a station's stream. One encoder per station and profile; the caster
 * feeds it every frame once and fans its output out to every rover on that profile. Choices and their grounds:
 * docs/adr/0086-rtcm-output-profiles.md.
 */
import { getBitU } from '../bits.ts';
import { type GnssSystem, msmKind, SYSTEM_INDEX } from '../obs/signals.ts';
import { decodeStationMessage, emptyStation } from '../station.ts';
import { encodeFrame, FRAME_HEADER, frameMessageType } from '../transport.ts';
import { LEGACY_KEYS, type LegacyState, writeLegacy } from './legacy.ts';
import { LockTracker } from './lock.ts';
import { MSM_SYNC_BIT, parseMsm, writeMsm4 } from './msm.ts';
import { type AntennaInfo, type ReceiverInfo, write1008, write1033 } from './station.ts';

export type RtcmProfile = 'as-sent' | 'msm4' | 'legacy';
export const RTCM_PROFILES: readonly RtcmProfile[] = ['as-sent', 'msm4', 'legacy'];
/** The constellation names of the catalogue's navSystems. */
export type ProfileConstellation = 'GPS' | 'GLO' | 'GAL' | 'BDS' | 'QZS' | 'IRN' | 'SBAS';

export interface ProfileOptions {
  profile: RtcmProfile;
  /** Constellations the rover gets; null = all. */
  constellations: readonly ProfileConstellation[] | null;
  /** The station's antenna from the catalogue: 1008 after each 1005/1006, 1033 when the station sends none. */
  antenna?: AntennaInfo | null;
  /** The receiver fields of an injected 1033. */
  receiver?: ReceiverInfo | null;
}

export interface ProfileEncoder {
  /** One complete RTCM 3 frame (preamble to CRC) in arrival order → the frames to send (0..n), each CRC-valid. */
  push(frame: Uint8Array): Uint8Array[];
}

const SYSTEM_OF: Readonly<Record<ProfileConstellation, GnssSystem>> = {
  GPS: 'G',
  GLO: 'R',
  GAL: 'E',
  BDS: 'C',
  QZS: 'J',
  IRN: 'I',
  SBAS: 'S',
};

/**
 * The constellation a non-MSM message belongs to, null when it belongs to none (station messages and the rest):
 * legacy observables, ephemerides (1043 is RTKLIB's SBAS ephemeris), GLONASS biases 1230, and the SSR corrections
 * of 10403.3 (1057–1068, 1240–1263) with the SSR phase biases 1265–1270 that IGS streams use.
 */
export function messageConstellation(type: number): GnssSystem | null {
  const msm = msmKind(type);
  if (msm) return msm.sys;
  if ((type >= 1001 && type <= 1004) || type === 1019 || (type >= 1057 && type <= 1062) || type === 1265) return 'G';
  if ((type >= 1009 && type <= 1012) || type === 1020 || type === 1230 || (type >= 1063 && type <= 1068)) return 'R';
  if (type === 1266) return 'R';
  if (type === 1045 || type === 1046 || (type >= 1240 && type <= 1245) || type === 1267) return 'E';
  if (type === 1044 || (type >= 1246 && type <= 1251) || type === 1268) return 'J';
  if (type === 1043 || (type >= 1252 && type <= 1257) || type === 1269) return 'S';
  if (type === 1042 || (type >= 1258 && type <= 1263) || type === 1270) return 'C';
  if (type === 1041) return 'I';
  return null;
}

/**
 * A station sends its own 1033 if one came within this many of its 1005/1006 messages; otherwise one is made from the
 * catalogue. Stations send 1033 as often as 1005 or a few times less often.
 */
const OWN_1033_WINDOW = 8;

export function createProfileEncoder(options: ProfileOptions): ProfileEncoder {
  if (options.profile === 'as-sent' && options.constellations === null && !options.antenna) {
    return { push: (frame) => [frame] };
  }
  return new Encoder(options);
}

function payloadOf(frame: Uint8Array): Uint8Array {
  return frame.subarray(FRAME_HEADER, frame.length - 3);
}

/** Bit offset of the "more messages of this epoch follow" flag (DF005 / DF393) of an observation message. */
function syncBit(type: number): number {
  return type >= 1009 && type <= 1012 ? 51 : MSM_SYNC_BIT;
}

function moreFollow(frame: Uint8Array): boolean {
  const payload = payloadOf(frame);
  const bit = syncBit(frameMessageType(frame));
  return payload.length * 8 > bit && getBitU(payload, bit, 1) === 1;
}

class Encoder implements ProfileEncoder {
  private readonly profile: RtcmProfile;
  private readonly allowed: ReadonlySet<GnssSystem> | null;
  private readonly antenna: AntennaInfo | null;
  private readonly receiver: ReceiverInfo;
  /** Whether an observation message can vanish, so the epoch's closing flag may have to move to an earlier one. */
  private readonly mayDropObservations: boolean;
  /**
   * The last observation frame sent on, held while its epoch is open (its "more follow" flag set): if the rest of
   * the epoch is dropped, it is sent with the flag cleared so rovers still close the epoch. Frames of other kinds
   * that arrive meanwhile wait behind it, to keep the order.
   */
  private held: Uint8Array | null = null;
  private readonly behindHeld: Uint8Array[] = [];
  private lastType = 0;
  private positionsSince1033 = OWN_1033_WINDOW;
  private readonly msm4Lock = new LockTracker(7 * 64 * 32);
  private readonly legacy: LegacyState = {
    lock: new LockTracker(LEGACY_KEYS),
    source: new Uint8Array(LEGACY_KEYS),
    glonassChannels: new Map(),
  };

  constructor(options: ProfileOptions) {
    this.profile = options.profile;
    this.allowed = options.constellations === null ? null : new Set(options.constellations.map((c) => SYSTEM_OF[c]));
    this.antenna = options.antenna ?? null;
    this.receiver = options.receiver ?? {};
    this.mayDropObservations = this.allowed !== null || this.profile === 'legacy';
  }

  push(frame: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    const type = frameMessageType(frame);
    const sys = messageConstellation(type);
    const msm = msmKind(type);
    if (msm || (type >= 1001 && type <= 1004) || (type >= 1009 && type <= 1012)) {
      const keep = sys !== null && (this.allowed === null || this.allowed.has(sys));
      this.observation(out, frame, keep ? this.convert(frame, type) : []);
      return out;
    }
    if (type === 1020) this.learnGlonassChannel(payloadOf(frame));
    if (sys !== null && this.allowed !== null && !this.allowed.has(sys)) return out;
    this.station(out, frame, type);
    return out;
  }

  /** The frames an allowed observation message becomes under the profile. */
  private convert(frame: Uint8Array, type: number): Uint8Array[] {
    const msm = msmKind(type);
    if (!msm || this.profile === 'as-sent') return [frame];
    if (this.profile === 'msm4') {
      if (msm.kind <= 4) return [frame];
      const payload = payloadOf(frame);
      const parsed = parseMsm(payload, msm.sys, msm.kind);
      if (!parsed) return [];
      const system = SYSTEM_INDEX[msm.sys];
      const lock = (sat: number, sig: number, ms: number, mapped: number) =>
        this.msm4Lock.next(((system * 64 + sat - 1) << 5) + sig - 1, ms, mapped);
      return [encodeFrame(writeMsm4(payload, type - msm.kind + 4, parsed, lock))];
    }
    // legacy: GPS and GLONASS MSM4–7 become 1004/1012; MSM1–3 lack the observables, other constellations have none.
    if ((msm.sys !== 'G' && msm.sys !== 'R') || msm.kind < 4) return [];
    const payload = payloadOf(frame);
    const parsed = parseMsm(payload, msm.sys, msm.kind);
    return parsed ? writeLegacy(payload, parsed, this.legacy).map((p) => encodeFrame(p)) : [];
  }

  private observation(out: Uint8Array[], input: Uint8Array, produced: Uint8Array[]): void {
    if (this.held) {
      if (produced.length > 0) this.release(out, false);
      else if (!moreFollow(input)) this.release(out, true);
    }
    produced.forEach((f, i) => {
      if (i === produced.length - 1 && this.mayDropObservations && moreFollow(f)) this.held = f;
      else this.emit(out, f);
    });
  }

  private release(out: Uint8Array[], close: boolean): void {
    const held = this.held as Uint8Array;
    this.held = null;
    let f = held;
    if (close) {
      const payload = Uint8Array.from(payloadOf(held));
      const bit = syncBit(frameMessageType(held));
      payload[bit >> 3] = (payload[bit >> 3] as number) & ~(0x80 >> (bit & 7));
      f = encodeFrame(payload);
    }
    this.emit(out, f);
    const behind = this.behindHeld.splice(0);
    for (const b of behind) this.emit(out, b);
  }

  private emit(out: Uint8Array[], frame: Uint8Array): void {
    if (this.held) {
      this.behindHeld.push(frame);
      return;
    }
    out.push(frame);
    this.lastType = frameMessageType(frame);
  }

  private learnGlonassChannel(payload: Uint8Array): void {
    if (payload.length * 8 < 23) return;
    const slot = getBitU(payload, 12, 6);
    if (slot >= 1) this.legacy.glonassChannels.set(slot, getBitU(payload, 18, 5) - 7);
  }

  /** Messages that are no observations: station messages get the catalogue's antenna, the rest passes. */
  private station(out: Uint8Array[], frame: Uint8Array, type: number): void {
    const antenna = this.antenna;
    if (type === 1033) this.positionsSince1033 = 0;
    if (!antenna) {
      this.emit(out, frame);
      return;
    }
    const payload = payloadOf(frame);
    const stationId = payload.length >= 3 ? getBitU(payload, 12, 12) : 0;
    if (type === 1005 || type === 1006) {
      this.emit(out, frame);
      this.emit(out, encodeFrame(write1008(stationId, antenna)));
      if (this.positionsSince1033 >= OWN_1033_WINDOW) {
        this.emit(out, encodeFrame(write1033(stationId, antenna, this.receiver)));
      }
      this.positionsSince1033 = Math.min(this.positionsSince1033 + 1, OWN_1033_WINDOW);
      return;
    }
    if (type === 1007 || type === 1008) {
      // The catalogue's antenna replaces the station's own, so the rover never sees two different antennas.
      if (this.lastType !== 1008) this.emit(out, encodeFrame(write1008(stationId, antenna)));
      return;
    }
    if (type === 1033) {
      const info = emptyStation();
      if (!decodeStationMessage(payload, info)) return;
      const receiver = { type: info.receiverType, firmware: info.receiverFirmware, serialNumber: info.receiverSerial };
      this.emit(out, encodeFrame(write1033(stationId, antenna, receiver)));
      return;
    }
    this.emit(out, frame);
  }
}
