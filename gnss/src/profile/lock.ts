/**
 * Lock time indicators of a coarser output message (MSM4's DF402, the legacy DF013/DF019/DF043/DF049) that still show
 * every loss of lock the input showed. Decoders (RTKLIB's and ours) see a loss of lock when the indicator went down,
 * or is 0 now and was 0 before; the input's 10-bit DF407 can go down where the coarser indicator stays equal (a slip
 * between two lock times in the same coarse step). Then the output indicator is lowered below the previous one: a
 * shorter lock time than the truth, which only makes the rover more careful.
 */
export class LockTracker {
  /** Per observable: the input's last minimum lock time in ms, -1 before the first. */
  private readonly inputMs: Float64Array;
  /** Per observable: the last indicator sent, -1 before the first. */
  private readonly sent: Int16Array;

  constructor(size: number) {
    this.inputMs = new Float64Array(size).fill(-1);
    this.sent = new Int16Array(size).fill(-1);
  }

  /**
   * The indicator to send for observable `key` whose input lock time is `lockMs` and whose own mapping gives
   * `mapped`. `forceSlip` marks a loss of lock the lock times cannot show (the output now comes from another signal).
   */
  next(key: number, lockMs: number, mapped: number, forceSlip = false): number {
    const previousIn = this.inputMs[key] as number;
    const previousOut = this.sent[key] as number;
    this.inputMs[key] = lockMs;
    const slipIn = forceSlip || (previousIn >= 0 && ((lockMs === 0 && previousIn === 0) || lockMs < previousIn));
    let out = mapped;
    if (slipIn && previousOut >= 0 && !(out < previousOut || (out === 0 && previousOut === 0))) {
      out = previousOut > 0 ? previousOut - 1 : 0;
    }
    this.sent[key] = out;
    return out;
  }
}
