/**
 * Antenna descriptor 1008 and antenna + receiver descriptor 1033 (RTCM 10403.3 §3.5.5) from the station's entry in
 * the catalogue. DF029/DF032 and the 1033 strings (DF228, DF230, DF232) are counted 8-bit characters; the standard
 * allows 31 of them (IGS antenna names are 20: the model, a blank and the radome), so longer text is cut there, and
 * anything outside printable ASCII becomes '?' rather than a byte a rover cannot print.
 */
import { BitWriter } from '../bit-writer.ts';

const MAX_TEXT = 31;

export interface AntennaInfo {
  descriptor: string;
  setupId: number;
  serialNumber?: string;
}

export interface ReceiverInfo {
  type?: string;
  firmware?: string;
  serialNumber?: string;
}

function clean(text: string | undefined): string {
  return (text ?? '').slice(0, MAX_TEXT).replace(/[^\x20-\x7e]/g, '?');
}

/** DF031 antenna setup ID is 0–255; anything else (not from a valid catalogue entry) is sent as 0, "use standard". */
function setupId(id: number): number {
  return Number.isInteger(id) && id >= 0 && id <= 255 ? id : 0;
}

function writeAntenna(w: BitWriter, antenna: AntennaInfo): void {
  w.text(clean(antenna.descriptor));
  w.u(8, setupId(antenna.setupId));
  w.text(clean(antenna.serialNumber));
}

export function write1008(stationId: number, antenna: AntennaInfo): Uint8Array {
  const w = new BitWriter(80);
  w.u(12, 1008);
  w.u(12, stationId);
  writeAntenna(w, antenna);
  return w.bytes();
}

export function write1033(stationId: number, antenna: AntennaInfo, receiver: ReceiverInfo): Uint8Array {
  const w = new BitWriter(200);
  w.u(12, 1033);
  w.u(12, stationId);
  writeAntenna(w, antenna);
  w.text(clean(receiver.type));
  w.text(clean(receiver.firmware));
  w.text(clean(receiver.serialNumber));
  return w.bytes();
}
