export type { Announcement, Bus } from './bus.ts';
export {
  type Caster,
  type CasterLimits,
  type CasterOptions,
  type CasterStats,
  createCaster,
  DEFAULT_LIMITS,
} from './caster.ts';
export { ChunkedDecoder } from './chunked.ts';
export { distanceKm, formatGga, type Position, parseGga } from './gga.ts';
export { CASTER_NODE_FLAGS } from './node-flags.ts';
export type * from './ports.ts';
export { type NtripRequest, parseRequestHead, RequestError } from './request.ts';
export { crc24q, encodeFrame, Frame, MAX_FRAME, RtcmFramer, validFrames } from './rtcm.ts';
export type { Logger } from './session-log.ts';
export { type CasterIdentity, filterRecords, renderSourcetable, wildcardMatch } from './sourcetable.ts';
export { connectTelemetryClient } from './telemetry/bus.ts';
export { parseGgaFix } from './telemetry/fix.ts';
export type * from './telemetry/types.ts';
