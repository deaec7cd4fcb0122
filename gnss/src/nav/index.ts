/** Navigation data: RTCM 3 broadcast ephemerides in, RINEX 3.04 navigation files out. */
export { decodeEphemeris, EPHEMERIS_MESSAGE_TYPES, EphemerisDecodeError } from './decode.ts';
export { formatD19, formatNavHeader, formatNavRecord, gpsFitHours, sisaMetres, uraMetres } from './rinex.ts';
export type { Ephemeris, GlonassEphemeris, KeplerEphemeris, KeplerSystem, NavSystem } from './types.ts';
export { NAV_SYSTEMS } from './types.ts';
export { NavWriter, type NavWriterOptions, parseNavSystems, type TextSink } from './writer.ts';
