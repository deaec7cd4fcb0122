/**
 * RINEX 3.04 mixed observation file: header records and epoch records as text. Field widths follow the RINEX 3.04
 * tables (A1–A3); header lines are padded to 80 columns, data lines lose their trailing blanks.
 */
import { type GnssSystem, SYSTEMS, sortSignals } from '../obs/signals.ts';
import type { ObservationEpoch, SatelliteObservation } from '../obs/types.ts';
import type { StationInfo } from '../station.ts';
import { type GpsTime, gpsTime, gpstToCalendar, leapSecondsAtGpst } from '../time.ts';

const OBSERVABLES = ['C', 'L', 'D', 'S'] as const;
type Observable = (typeof OBSERVABLES)[number];

/** Collects, per system, the signals and observables that occur in the written epochs. */
export class ObsTypeCollector {
  private readonly seen = new Map<GnssSystem, Map<string, number>>();

  add(epoch: ObservationEpoch): void {
    for (const sat of epoch.satellites) {
      let codes = this.seen.get(sat.sys);
      if (!codes) {
        codes = new Map();
        this.seen.set(sat.sys, codes);
      }
      for (const s of sat.signals) {
        const seen = codes.get(s.code);
        let flags = seen ?? 0;
        if (s.pseudorange !== 0) flags |= 1;
        if (s.phase !== 0) flags |= 2;
        if (s.doppler !== 0) flags |= 4;
        if (s.snrMilli !== 0) flags |= 8;
        if (flags !== seen) codes.set(s.code, flags);
      }
    }
  }

  /** 'C1C', 'L1C', … per system in RINEX order: frequency slot, tracking-mode preference, then C L D S. */
  types(): Map<GnssSystem, string[]> {
    const out = new Map<GnssSystem, string[]>();
    for (const sys of SYSTEMS) {
      const codes = this.seen.get(sys);
      if (!codes) continue;
      const list: string[] = [];
      for (const code of sortSignals(sys, [...codes.keys()])) {
        const flags = codes.get(code) ?? 0;
        OBSERVABLES.forEach((o, i) => {
          // Codeless tracking has no pseudorange of its own (RINEX 3.04 5.1).
          if (flags & (1 << i) && !(o === 'C' && code[1] === 'N')) list.push(`${o}${code}`);
        });
      }
      if (list.length > 0) out.set(sys, list);
    }
    return out;
  }
}

export interface ObsHeader {
  obsTypes: Map<GnssSystem, string[]>;
  /** Systems the file was asked for; one system makes a single-system file, more a mixed one. */
  systems: readonly GnssSystem[];
  station: StationInfo;
  marker: string;
  observer: string;
  agency: string;
  program: string;
  runBy: string;
  createdAt: Date;
  interval?: number;
  firstEpoch: GpsTime;
  lastEpoch: GpsTime;
  glonassChannels: ReadonlyMap<number, number>;
  comments: string[];
}

const SYSTEM_NAMES: Record<GnssSystem, string> = {
  G: 'G: GPS',
  R: 'R: GLONASS',
  E: 'E: Galileo',
  J: 'J: QZSS',
  S: 'S: SBAS Payload',
  C: 'C: BeiDou',
  I: 'I: NavIC/IRNSS',
};

/** Reference signals of RINEX 3.04 table A23: their phases define each band's phase, so they carry no shift. */
const PHASE_REFERENCE: Record<GnssSystem, readonly string[]> = {
  G: ['1C', '2P', '5I'],
  R: ['1C', '4A', '2C', '6A', '3I'],
  E: ['1B', '5I', '7I', '8I', '6B'],
  J: ['1C', '2S', '5I', '5D', '6S'],
  S: ['1C', '5I'],
  C: ['2I', '1D', '5D', '7I', '7D', '8D', '6I'],
  I: ['5A', '9A'],
};

function line(content: string, label: string): string {
  return `${content.padEnd(60).slice(0, 60)}${label.padEnd(20)}\n`;
}

function a(text: string, width: number): string {
  return text.slice(0, width).padEnd(width);
}

function f(value: number, width: number, decimals: number): string {
  return value.toFixed(decimals).padStart(width);
}

function i(value: number, width: number): string {
  return String(value).padStart(width);
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** Calendar of a GPS time with the seconds rounded to the 0.1 µs RINEX prints, so 59.99999999 never shows as 60. */
function epochCalendar(t: GpsTime) {
  return gpstToCalendar(gpsTime(t.week, Math.round(t.tow * 1e7) / 1e7));
}

function timeRecord(t: GpsTime, label: string): string {
  const c = epochCalendar(t);
  return line(
    `${i(c.year, 6)}${i(c.month, 6)}${i(c.day, 6)}${i(c.hour, 6)}${i(c.minute, 6)}${f(c.second, 13, 7)}     GPS`,
    label,
  );
}

/** IGS antenna type: 16 characters of antenna, then the 4-character radome code (NONE when none). */
function antennaType(descriptor: string): string {
  const m = /^(\S{1,16})\s+(\S{4})$/.exec(descriptor);
  return m ? `${(m[1] as string).padEnd(16)}${m[2]}` : descriptor;
}

/** Marker position from the ARP: the ARP lies `height` metres above the marker along the ellipsoid normal. */
function markerPosition(arp: [number, number, number], height: number): [number, number, number] {
  if (height === 0) return arp;
  const [x, y, z] = arp;
  const a = 6378137;
  const e2 = 0.00669437999014;
  const p = Math.hypot(x, y);
  let lat = Math.atan2(z, p * (1 - e2));
  for (let k = 0; k < 5; k++) {
    const n = a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
    lat = Math.atan2(z + e2 * n * Math.sin(lat), p);
  }
  const lon = Math.atan2(y, x);
  const up = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)] as const;
  return [x - height * up[0], y - height * up[1], z - height * up[2]];
}

function formatDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())} UTC`;
}

export function formatObsHeader(h: ObsHeader): string {
  const st = h.station;
  const kind = h.systems.length === 1 ? SYSTEM_NAMES[h.systems[0] as GnssSystem] : 'M: Mixed';
  let out = line(`${f(3.04, 9, 2)}${' '.repeat(11)}${a('OBSERVATION DATA', 20)}${kind}`, 'RINEX VERSION / TYPE');
  out += line(`${a(h.program, 20)}${a(h.runBy, 20)}${formatDate(h.createdAt)}`, 'PGM / RUN BY / DATE');
  for (const c of h.comments) out += line(c, 'COMMENT');
  out += line(h.marker, 'MARKER NAME');
  out += line(`${a(h.observer, 20)}${a(h.agency, 40)}`, 'OBSERVER / AGENCY');
  out += line(
    `${a(st.receiverSerial, 20)}${a(st.receiverType, 20)}${a(st.receiverFirmware, 20)}`,
    'REC # / TYPE / VERS',
  );
  out += line(`${a(st.antennaSerial, 20)}${a(antennaType(st.antennaDescriptor), 20)}`, 'ANT # / TYPE');
  const pos = st.arp ? markerPosition(st.arp, st.antennaHeight) : [0, 0, 0];
  out += line(pos.map((v) => f(v, 14, 4)).join(''), 'APPROX POSITION XYZ');
  out += line(`${f(st.antennaHeight, 14, 4)}${f(0, 14, 4)}${f(0, 14, 4)}`, 'ANTENNA: DELTA H/E/N');
  for (const [sys, types] of h.obsTypes) {
    for (let k = 0; k < types.length; k += 13) {
      const head = k === 0 ? `${sys}  ${i(types.length, 3)}` : '      ';
      out += line(
        head +
          types
            .slice(k, k + 13)
            .map((t) => ` ${t}`)
            .join(''),
        'SYS / # / OBS TYPES',
      );
    }
  }
  out += line('DBHZ', 'SIGNAL STRENGTH UNIT');
  if (h.interval) out += line(f(h.interval, 10, 3), 'INTERVAL');
  out += timeRecord(h.firstEpoch, 'TIME OF FIRST OBS');
  out += timeRecord(h.lastEpoch, 'TIME OF LAST OBS');
  for (const [sys, types] of h.obsTypes) {
    for (const t of types) {
      if (t[0] !== 'L') continue;
      // Phases are written as the receiver aligned them (RTCM MSM phases are aligned to the reference signal):
      // the correction applied is 0 for every non-reference signal.
      const isReference = PHASE_REFERENCE[sys].includes(t.slice(1));
      out += line(`${sys} ${t}${isReference ? '' : ` ${f(0, 8, 5)}`}`, 'SYS / PHASE SHIFT');
    }
  }
  if (h.systems.includes('R')) {
    const slots = [...h.glonassChannels].filter(([, k]) => k >= -7 && k <= 6).sort((x, y) => x[0] - y[0]);
    for (let k = 0; k === 0 || k < slots.length; k += 8) {
      const head = k === 0 ? `${i(slots.length, 3)} ` : '    ';
      const list = slots
        .slice(k, k + 8)
        .map(([slot, ch]) => `R${two(slot)} ${i(ch, 2)}`)
        .join(' ');
      out += line(head + list, 'GLONASS SLOT / FRQ #');
    }
    const biases = st.glonassBiases?.biases ?? [null, null, null, null];
    const codes = ['C1C', 'C1P', 'C2C', 'C2P'];
    out += line(
      biases.map((b, k) => (b === null ? ' '.repeat(13) : ` ${codes[k]} ${f(b, 8, 3)}`)).join(''),
      'GLONASS COD/PHS/BIS',
    );
  }
  out += line(i(leapSecondsAtGpst(h.firstEpoch), 6), 'LEAP SECONDS');
  out += line('', 'END OF HEADER');
  return out;
}

/** Where records are written: a block of bytes with room made on request (AtomicTextFile). */
export interface ByteOut {
  buf: Buffer;
  pos: number;
  room(bytes: number): void;
}

const SPACE = 0x20;
const ZERO = 0x30;
const FIELD = 16;
/** Observable columns of a signal in a record, in header order; -1 when the header does not list it. */
const NO_COLUMN = -1;

/** Digits of a non-negative integer below 2³¹, right-aligned so its last digit lands just before `end`. */
function putInt(buf: Buffer, end: number, n: number): number {
  let at = end;
  let v = n;
  do {
    const q = (v / 10) | 0;
    buf[--at] = ZERO + v - q * 10;
    v = q;
  } while (v > 0);
  return at;
}

/** Three decimals of a whole number of thousandths (below 10¹²), right-aligned to end just before `end`. */
function putThousandths(buf: Buffer, end: number, m: number, negative: boolean): void {
  const whole = Math.floor(m / 1000);
  let frac = m - whole * 1000;
  for (let k = 1; k <= 3; k++) {
    const q = (frac / 10) | 0;
    buf[end - k] = ZERO + frac - q * 10;
    frac = q;
  }
  buf[end - 4] = 0x2e;
  const at = putInt(buf, end - 4, whole);
  if (negative) buf[at - 1] = 0x2d;
}

/**
 * F14.3 of a value, as `value.toFixed(3).padStart(14)` would write it, into the 14 bytes before `end` (already
 * blank). toFixed rounds the double's exact decimal value, ties away from zero; value × 1000 can be off that
 * exact product by up to 2⁻¹³ below 10⁹, so a product that close to a tie goes through toFixed itself.
 */
function putF14(buf: Buffer, end: number, value: number): void {
  const negative = value < 0;
  const scaled = negative ? -value * 1000 : value * 1000;
  let m = Math.floor(scaled);
  const frac = scaled - m;
  if (frac > 0.499 && frac < 0.501) {
    const text = value.toFixed(3);
    buf.write(text, end - text.length, 'latin1');
    return;
  }
  if (frac > 0.5) m++;
  putThousandths(buf, end, m, negative);
}

interface SystemLayout {
  /** Bytes of a line with every column: "G01" and 16 per observation type. */
  width: number;
  /** Per signal code: the column index of its C, L, D and S types (NO_COLUMN when absent). */
  columns: Map<string, Int16Array>;
}

/** Per system, where each signal's observables go; computed once per header rather than per satellite line. */
const layouts = new WeakMap<ReadonlyMap<GnssSystem, string[]>, Map<GnssSystem, SystemLayout>>();

function layoutOf(obsTypes: ReadonlyMap<GnssSystem, string[]>): Map<GnssSystem, SystemLayout> {
  let layout = layouts.get(obsTypes);
  if (!layout) {
    layout = new Map();
    for (const [sys, types] of obsTypes) {
      const columns = new Map<string, Int16Array>();
      types.forEach((t, index) => {
        const code = t.slice(1);
        let at = columns.get(code);
        if (!at) {
          at = new Int16Array(OBSERVABLES.length).fill(NO_COLUMN);
          columns.set(code, at);
        }
        at[OBSERVABLES.indexOf(t[0] as Observable)] = index;
      });
      layout.set(sys, { width: 3 + FIELD * types.length, columns });
    }
    layouts.set(obsTypes, layout);
  }
  return layout;
}

/**
 * One satellite's line: blanks for every column, then each signal's values at their columns; trailing blanks are
 * cut. A value of 0 stays blank, but a phase's LLI is written even then.
 */
function writeSatellite(sat: SatelliteObservation, layout: SystemLayout, out: ByteOut): void {
  out.room(layout.width + 1);
  const buf = out.buf;
  const start = out.pos;
  buf.fill(SPACE, start, start + layout.width);
  buf[start] = sat.sys.charCodeAt(0);
  buf[start + 1] = ZERO + ((sat.prn / 10) | 0);
  buf[start + 2] = ZERO + (sat.prn % 10);
  for (const s of sat.signals) {
    const at = layout.columns.get(s.code);
    if (!at) continue;
    const c = at[0] as number;
    if (c !== NO_COLUMN && s.pseudorange !== 0 && Math.abs(s.pseudorange) < 1e9) {
      putF14(buf, start + 17 + FIELD * c, s.pseudorange);
    }
    const l = at[1] as number;
    if (l !== NO_COLUMN) {
      const end = start + 17 + FIELD * l;
      if (s.phase !== 0 && Math.abs(s.phase) < 1e9) putF14(buf, end, s.phase);
      if (s.lli & 7) buf[end] = ZERO + (s.lli & 7);
    }
    const d = at[2] as number;
    if (d !== NO_COLUMN && s.doppler !== 0 && Math.abs(s.doppler) < 1e9) putF14(buf, start + 17 + FIELD * d, s.doppler);
    const n = at[3] as number;
    if (n !== NO_COLUMN && s.snrMilli !== 0) putThousandths(buf, start + 17 + FIELD * n, s.snrMilli, false);
  }
  let end = start + layout.width;
  while (end > start + 3 && buf[end - 1] === SPACE) end--;
  buf[end] = 0x0a;
  out.pos = end + 1;
}

/** One epoch record (flag 0) with the satellites that have observation types in the header. */
export function writeObsEpoch(
  epoch: ObservationEpoch,
  obsTypes: ReadonlyMap<GnssSystem, string[]>,
  out: ByteOut,
): void {
  const sats = epoch.satellites.filter((s) => obsTypes.has(s.sys));
  if (sats.length === 0) return;
  const c = epochCalendar(epoch.time);
  const head = `> ${c.year} ${two(c.month)} ${two(c.day)} ${two(c.hour)} ${two(c.minute)}${f(c.second, 11, 7)}  0${i(sats.length, 3)}\n`;
  out.room(head.length);
  out.pos += out.buf.write(head, out.pos, 'latin1');
  const layout = layoutOf(obsTypes);
  for (const sat of sats) writeSatellite(sat, layout.get(sat.sys) as SystemLayout, out);
}
