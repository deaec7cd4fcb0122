/**
 * Reference-station messages: position (1005/1006), antenna (1007/1008), antenna and receiver (1033) and GLONASS
 * code-phase biases (1230). They fill the RINEX header; a later message of a type replaces an earlier one.
 */
import { BitReader } from './obs/bit-reader.ts';
import { encodeFrame } from './transport.ts';

export interface GlonassBiases {
  /** DF421: the receiver's GLONASS code and phase observations are aligned to the same epoch. */
  aligned: boolean;
  /** Metres for C1C, C1P, C2C, C2P; null when the message does not carry that signal's bias. */
  biases: [number | null, number | null, number | null, number | null];
}

export interface StationInfo {
  stationId: number | null;
  /** Antenna reference point, ECEF metres (1005/1006). */
  arp: [number, number, number] | null;
  /** ITRF realisation year field of 1005/1006. */
  itrfYear: number | null;
  /** Height of the ARP above the marker (1006), metres. */
  antennaHeight: number;
  antennaDescriptor: string;
  antennaSetupId: number;
  antennaSerial: string;
  receiverType: string;
  receiverFirmware: string;
  receiverSerial: string;
  glonassBiases: GlonassBiases | null;
}

export function emptyStation(): StationInfo {
  return {
    stationId: null,
    arp: null,
    itrfYear: null,
    antennaHeight: 0,
    antennaDescriptor: '',
    antennaSetupId: 0,
    antennaSerial: '',
    receiverType: '',
    receiverFirmware: '',
    receiverSerial: '',
    glonassBiases: null,
  };
}

export const STATION_MESSAGES = new Set([1005, 1006, 1007, 1008, 1033, 1230]);

/** Signed 38-bit coordinate in 0.1 mm. */
function coordinate(r: BitReader): number {
  return r.s(38) * 0.0001;
}

/**
 * Applies one station message (the payload, message number first) to `info`. Returns false when the payload is too
 * short for what its own counts announce; the message is then ignored.
 */
export function decodeStationMessage(payload: Uint8Array, info: StationInfo): boolean {
  const r = new BitReader(payload);
  const type = r.u(12);
  const bits = payload.length * 8;
  switch (type) {
    case 1005:
    case 1006: {
      if (bits < (type === 1005 ? 152 : 168)) return false;
      const stationId = r.u(12);
      const itrfYear = r.u(6);
      r.skip(4);
      const x = coordinate(r);
      r.skip(2);
      const y = coordinate(r);
      r.skip(2);
      const z = coordinate(r);
      info.stationId = stationId;
      info.itrfYear = itrfYear;
      info.arp = [x, y, z];
      info.antennaHeight = type === 1006 ? r.u(16) * 0.0001 : 0;
      return true;
    }
    case 1007:
    case 1008:
    case 1033: {
      const stationId = r.u(12);
      const descriptor = counted(r, bits);
      if (descriptor === null || r.remaining < 8) return false;
      const setup = r.u(8);
      let serial = '';
      if (type !== 1007) {
        const s = counted(r, bits);
        if (s === null) return false;
        serial = s;
      }
      let receiver: [string, string, string] | null = null;
      if (type === 1033) {
        const rt = counted(r, bits);
        const fw = rt === null ? null : counted(r, bits);
        const rs = fw === null ? null : counted(r, bits);
        if (rt === null || fw === null || rs === null) return false;
        receiver = [rt, fw, rs];
      }
      info.stationId = stationId;
      info.antennaDescriptor = descriptor.trim();
      info.antennaSetupId = setup;
      info.antennaSerial = serial.trim();
      if (receiver) {
        info.receiverType = receiver[0].trim();
        info.receiverFirmware = receiver[1].trim();
        info.receiverSerial = receiver[2].trim();
      }
      return true;
    }
    case 1230: {
      if (r.remaining < 20) return false;
      const stationId = r.u(12);
      const aligned = r.u(1) === 1;
      r.skip(3);
      const mask = r.u(4);
      const biases: GlonassBiases['biases'] = [null, null, null, null];
      for (let i = 0; i < 4; i++) {
        if (!(mask & (1 << (3 - i)))) continue;
        if (r.remaining < 16) return false;
        const raw = r.s(16);
        // −32768 is "not valid".
        biases[i] = raw === -32768 ? null : raw * 0.02;
      }
      info.stationId = stationId;
      info.glonassBiases = { aligned, biases };
      return true;
    }
    default:
      return false;
  }
}

/** An 8-bit count followed by that many characters; null when the payload ends first. */
function counted(r: BitReader, bits: number): string | null {
  if (bits - r.pos < 8) return null;
  const n = r.u(8);
  if (bits - r.pos < n * 8) return null;
  return r.text(n);
}

/** The antenna reference point (ECEF metres) of a whole 1005/1006 frame (header and CRC included); null otherwise. */
export function decodeStationPosition(frame: Uint8Array): [number, number, number] | null {
  const info = emptyStation();
  const payload = frame.subarray(3, frame.length - 3);
  const type = payload.length >= 2 ? ((payload[0] as number) << 4) | ((payload[1] as number) >> 4) : 0;
  if (type !== 1005 && type !== 1006) return null;
  return decodeStationMessage(payload, info) ? info.arp : null;
}

/**
 * A whole 1005 frame (CRC included) for an antenna reference point in ECEF metres: GPS, GLONASS and Galileo
 * indicated, a physical reference station. What a base station sends; tests and tools use it to make one.
 */
export function encodeStationPosition(arp: [number, number, number], stationId = 0): Buffer {
  const payload = Buffer.alloc(19);
  let bit = 0;
  const put = (value: bigint, bits: number) => {
    for (let i = bits - 1; i >= 0; i--, bit++) {
      if ((value >> BigInt(i)) & 1n) payload[bit >> 3] = (payload[bit >> 3] as number) | (0x80 >> (bit & 7));
    }
  };
  const coordinate = (metres: number) => BigInt(Math.round(metres * 10_000)) & ((1n << 38n) - 1n);
  put(1005n, 12);
  put(BigInt(stationId), 12);
  put(0n, 6);
  put(0b1110n, 4);
  put(coordinate(arp[0]), 38);
  put(0n, 2);
  put(coordinate(arp[1]), 38);
  put(0n, 2);
  put(coordinate(arp[2]), 38);
  return encodeFrame(payload);
}
