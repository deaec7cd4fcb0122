import type { GpsTime } from '../time.ts';
import type { GnssSystem } from './signals.ts';

/** Loss of lock since the previous observation of this signal (RINEX LLI bit 0). */
export const LLI_SLIP = 1;
/** Half-cycle ambiguity not resolved (RINEX LLI bit 1). */
export const LLI_HALF_CYCLE = 2;

/** One signal of one satellite at one epoch. A value of 0 means "not observed", as RINEX leaves it blank. */
export interface SignalObservation {
  /** RINEX attribute: band digit and tracking code, e.g. '1C', '2W'. */
  code: string;
  /** Pseudorange, metres. */
  pseudorange: number;
  /** Carrier phase, cycles. */
  phase: number;
  /** Doppler, Hz. */
  doppler: number;
  /** Carrier-to-noise density in 0.001 dB-Hz (integer), RINEX prints it with three decimals. */
  snrMilli: number;
  /** RINEX loss-of-lock indicator bits for the phase. */
  lli: number;
}

export interface SatelliteObservation {
  sys: GnssSystem;
  prn: number;
  signals: SignalObservation[];
}

export interface ObservationEpoch {
  /** GPS time of the epoch. */
  time: GpsTime;
  stationId: number;
  /** Satellites in the order their messages arrived (convbin's order). */
  satellites: SatelliteObservation[];
}
