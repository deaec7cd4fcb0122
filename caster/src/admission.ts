/** One of an account's connections, held from the moment a login is allowed until it is given back. */
export interface Slot {
  /** Gives the connection back; a second call does nothing. */
  release(): void;
}

/**
 * An account's connections on this node: its rovers logged in (`connected`, kept by Rovers) and logins allowed
 * but not yet streaming (`reserved`). A slot is counted in the same synchronous step that finds it free, so logins
 * whose decisions arrive together cannot all see the same free connection (ADR 0040). A login gives its slot back
 * once its rover is registered (it is then counted in `connected`) or when it fails.
 */
export class AccountSlots {
  private readonly reserved = new Map<string, number>();

  constructor(private readonly connected: Map<string, ReadonlySet<unknown>>) {}

  /** Connections the account holds on this node, those being set up included. */
  held(accountId: string): number {
    return (this.connected.get(accountId)?.size ?? 0) + (this.reserved.get(accountId) ?? 0);
  }

  /** Takes one of the account's `max` connections, or null when this node holds them all. */
  take(accountId: string, max: number): Slot | null {
    if (this.held(accountId) >= max) return null;
    this.reserved.set(accountId, (this.reserved.get(accountId) ?? 0) + 1);
    return new Reserved(this.reserved, accountId);
  }
}

/** A slot taken by AccountSlots: an object rather than a closure, as a storm takes thousands a second. */
class Reserved implements Slot {
  private released = false;

  constructor(
    private readonly reserved: Map<string, number>,
    private readonly accountId: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    const n = (this.reserved.get(this.accountId) ?? 1) - 1;
    if (n > 0) this.reserved.set(this.accountId, n);
    else this.reserved.delete(this.accountId);
  }
}
