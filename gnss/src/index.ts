export { getBitS, getBitSignMagnitude, getBitU } from './bits.ts';
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
