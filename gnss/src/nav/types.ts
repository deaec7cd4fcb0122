import type { GpsTime } from '../time.ts';

/** The constellations whose broadcast orbits are Keplerian elements (GPS LNAV-like records in RINEX 3). */
export type KeplerSystem = 'G' | 'E' | 'C' | 'J' | 'I';
export type NavSystem = KeplerSystem | 'R';
export const NAV_SYSTEMS: readonly NavSystem[] = ['G', 'R', 'E', 'C', 'J', 'I'];

/**
 * One broadcast ephemeris of GPS (1019), NavIC/IRNSS (1041), BeiDou (1042), QZSS (1044) or Galileo (1045 F/NAV,
 * 1046 I/NAV), in the units RINEX 3.04 writes: seconds, metres, radians (the messages' semicircles multiplied by
 * the ICDs' π = 3.1415926535898), radians per second.
 */
export interface KeplerEphemeris {
  readonly system: KeplerSystem;
  readonly prn: number;
  readonly messageType: 1019 | 1041 | 1042 | 1044 | 1045 | 1046;
  /**
   * The week that goes with toe as RINEX writes it: the continuous GPS week for GPS, QZSS, NavIC and Galileo
   * (RINEX aligns the Galileo week with GPS's), the BDT week for BeiDou.
   */
  readonly week: number;
  /** Time of ephemeris in seconds of `week`, in the constellation's own time (BDT for BeiDou). */
  readonly toeSeconds: number;
  /** Time of ephemeris and time of clock as GPS time. */
  readonly toe: GpsTime;
  readonly toc: GpsTime;
  /** The receiver's time when the message arrived (the caller's time); RINEX's "transmission time" field. */
  readonly received: GpsTime;
  readonly af0: number;
  readonly af1: number;
  readonly af2: number;
  /** IODE (GPS, QZSS), IODnav (Galileo), AODE (BeiDou), IODEC (NavIC). */
  readonly iode: number;
  /** IODC (GPS, QZSS), AODC (BeiDou); IODnav/IODEC again for Galileo and NavIC. */
  readonly iodc: number;
  readonly crs: number;
  readonly deltaN: number;
  readonly m0: number;
  readonly cuc: number;
  readonly e: number;
  readonly cus: number;
  readonly sqrtA: number;
  readonly cic: number;
  readonly omega0: number;
  readonly cis: number;
  readonly i0: number;
  readonly crc: number;
  readonly omega: number;
  readonly omegaDot: number;
  readonly idot: number;
  /** URA index (GPS, QZSS, BeiDou, NavIC) or SISA index (Galileo), as broadcast. */
  readonly accuracyIndex: number;
  /**
   * Health as RINEX writes it: the 6-bit word (GPS, QZSS), SatH1 (BeiDou), the L5 and S flags (NavIC), or the
   * Galileo bit field (bit 0 E1-B DVS, 1–2 E1-B HS, 3 E5a DVS, 4–5 E5a HS, 6 E5b DVS, 7–8 E5b HS).
   */
  readonly health: number;
  /** TGD (GPS, QZSS, NavIC), BGD E5a/E1 (Galileo), TGD1 B1/B3 (BeiDou). */
  readonly tgd1: number;
  /** BGD E5b/E1 (Galileo I/NAV), TGD2 B2/B3 (BeiDou); 0 where the message has none. */
  readonly tgd2: number;
  /** Codes on L2 (GPS, QZSS); Galileo's data-source bits (258 F/NAV E5a, 517 I/NAV E1-B/E5b); else 0. */
  readonly codes: number;
  /** L2 P data flag (GPS; QZSS's is fixed to 1 by RINEX); else 0. */
  readonly l2pFlag: number;
  /** Curve-fit interval flag (GPS, QZSS); else 0. */
  readonly fitFlag: number;
}

/** One GLONASS ephemeris (1020), in RINEX's units: km, km/s, km/s², seconds. */
export interface GlonassEphemeris {
  readonly system: 'R';
  readonly prn: number;
  readonly messageType: 1020;
  /** Frequency channel number, −7…+13 (the observation decoder needs it for MSM4/6 and legacy messages). */
  readonly frequencyChannel: number;
  /** Reference time tb as GPS time (RINEX writes it as a UTC epoch). */
  readonly toe: GpsTime;
  /** Message frame time tk as GPS time. */
  readonly frameTime: GpsTime;
  readonly received: GpsTime;
  readonly position: readonly [number, number, number];
  readonly velocity: readonly [number, number, number];
  readonly acceleration: readonly [number, number, number];
  /** τn: RINEX writes −τn as the clock bias. */
  readonly tauN: number;
  readonly gammaN: number;
  /** Most significant bit of Bn (0 = healthy). */
  readonly health: number;
  /** Age of the operational information En, days. */
  readonly age: number;
}

export type Ephemeris = KeplerEphemeris | GlonassEphemeris;
