import { RtcmFramer as ByteFramer, frameMessageType } from '@portal/gnss';

export { crc24q, encodeFrame, MAX_FRAME, validFrames } from '@portal/gnss';

/**
 * One checked frame, shared by every rover that receives it. The chunked-encoding form for NTRIP 2 rovers is
 * made once, on first use, so a thousand v2 rovers cost one extra buffer per frame, not a thousand.
 */
export class Frame {
  readonly messageType: number;
  private chunkedForm: Buffer | undefined;

  constructor(readonly data: Buffer) {
    this.messageType = frameMessageType(data);
  }

  get chunked(): Buffer {
    if (!this.chunkedForm) {
      const head = `${this.data.length.toString(16)}\r\n`;
      const out = Buffer.allocUnsafe(head.length + this.data.length + 2);
      out.write(head, 0, 'latin1');
      this.data.copy(out, head.length);
      out.write('\r\n', head.length + this.data.length, 'latin1');
      this.chunkedForm = out;
    }
    return this.chunkedForm;
  }
}

/** The caster's framer: the transport layer's, handing on each frame wrapped for fan-out. */
export class RtcmFramer extends ByteFramer {
  constructor(onFrame: (frame: Frame) => void) {
    super((data) => onFrame(new Frame(data)));
  }
}
