import { compareTime, type GpsTime } from '../time.ts';
import { formatNavHeader, formatNavRecord } from './rinex.ts';
import { type Ephemeris, NAV_SYSTEMS, type NavSystem } from './types.ts';

/** Anything with write(): a file or gzip stream, or an array collector in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

export interface NavWriterOptions {
  /** Constellations to write, e.g. "GREC" (default: all six: G R E C J I). */
  systems?: string;
  /** Reception-time window [from, to) as GPS time; an ephemeris received outside it is not written. */
  from?: GpsTime;
  to?: GpsTime;
  /** PGM / RUN BY / DATE. */
  program?: string;
  runBy?: string;
  created?: Date;
  comments?: readonly string[];
  /** Decide and count what would be written without formatting it (the converter's scan pass). */
  countOnly?: boolean;
}

/** Parses a constellation list ("GREC", case-insensitive); throws on a letter that is not one of G R E C J I. */
export function parseNavSystems(text: string): NavSystem[] {
  const systems: NavSystem[] = [];
  for (const letter of text.toUpperCase()) {
    if (!NAV_SYSTEMS.includes(letter as NavSystem)) {
      throw new RangeError(`unknown constellation "${letter}" (use G, R, E, C, J, I)`);
    }
    if (!systems.includes(letter as NavSystem)) systems.push(letter as NavSystem);
  }
  return systems;
}

/**
 * What makes two broadcasts of one satellite the same ephemeris, as convbin (RTKLIB 2.4.3) judges it, so that the
 * same set is written: the issue of data for GPS, NavIC and Galileo (F/NAV and I/NAV apart), issue of data
 * ephemeris and clock for QZSS, toe and both ages for BeiDou, toe and health for GLONASS.
 */
function identity(eph: Ephemeris): { slot: string; id: string } {
  const satellite = `${eph.system}${eph.prn}`;
  switch (eph.system) {
    case 'R':
      return { slot: satellite, id: `${eph.toe.week}:${eph.toe.tow}:${eph.health}` };
    case 'E':
      return { slot: `${satellite}:${eph.messageType}`, id: `${eph.iode}` };
    case 'J':
      return { slot: satellite, id: `${eph.iode}:${eph.iodc}` };
    case 'C':
      return { slot: satellite, id: `${eph.toe.week}:${eph.toe.tow}:${eph.iode}:${eph.iodc}` };
    default:
      return { slot: satellite, id: `${eph.iode}` };
  }
}

/**
 * Streams a RINEX 3.04 navigation file: the header at once, then each ephemeris as it is added, in arrival order,
 * when it differs from the last one written for its satellite (and, for Galileo, its message). Only that last
 * identity per satellite is kept, so memory does not grow with the length of the input.
 */
export class NavWriter {
  private readonly systems: readonly NavSystem[];
  private readonly last = new Map<string, string>();
  /** Records written. */
  written = 0;

  constructor(
    private readonly out: TextSink,
    private readonly options: NavWriterOptions = {},
  ) {
    this.systems = options.systems === undefined ? NAV_SYSTEMS : parseNavSystems(options.systems);
    out.write(
      formatNavHeader({
        systems: this.systems,
        program: options.program ?? 'portal-rinex',
        runBy: options.runBy ?? '',
        created: options.created ?? new Date(),
        comments: options.comments ?? [],
      }),
    );
  }

  /** Writes the ephemeris unless it is filtered out or repeats the satellite's last one; says whether it wrote. */
  add(eph: Ephemeris): boolean {
    if (!this.systems.includes(eph.system)) return false;
    const { from, to } = this.options;
    if (from && compareTime(eph.received, from) < 0) return false;
    if (to && compareTime(eph.received, to) >= 0) return false;
    const { slot, id } = identity(eph);
    if (this.last.get(slot) === id) return false;
    this.last.set(slot, id);
    if (!this.options.countOnly) this.out.write(formatNavRecord(eph));
    this.written++;
    return true;
  }
}
