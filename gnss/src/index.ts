export { getBitS, getBitSignMagnitude, getBitU } from './bits.ts';
export { runCli } from './cli.ts';
export {
  ConversionError,
  type ConversionErrorCode,
  type ConversionResult,
  type ConvertOptions,
  convertRtcmToRinex,
  fileSource,
  INTERVALS,
  type RtcmSource,
} from './convert.ts';
export { type Ecef, ecefToGeodetic, geodeticToEcef, horizontalVertical } from './geodesy.ts';
export { ObservationDecoder } from './obs/decoder.ts';
export type { GnssSystem } from './obs/signals.ts';
export type { ObservationEpoch } from './obs/types.ts';
export {
  createProfileEncoder,
  messageConstellation,
  type ProfileConstellation,
  type ProfileEncoder,
  type ProfileOptions,
  RTCM_PROFILES,
  type RtcmProfile,
} from './profile/index.ts';
export { createRetimer, epochShiftTo, firstWeekEpochMs, retimeCapture, retimeFrame } from './retime.ts';
export { rinexObsFileName, rinexStationId } from './rinex/file-name.ts';
export { decodeStationMessage, decodeStationPosition, emptyStation, encodeStationPosition } from './station.ts';
export {
  addSeconds,
  calendarToGpst,
  compareTime,
  diffSeconds,
  type GpsTime,
  gpstToCalendar,
  gpstToUtc,
  parseApproxTime,
  resolveBdsTow,
  resolveGlonassTod,
  resolveTow,
  utcToGpst,
} from './time.ts';
export {
  crc24q,
  encodeFrame,
  FRAME_HEADER,
  frameMessageType,
  framePayload,
  MAX_FRAME,
  RtcmFramer,
  validFrames,
} from './transport.ts';
