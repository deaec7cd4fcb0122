import { addCount } from './counts.ts';

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
  /** Of `reserved`, the connections lent to the native port (ADR 0100), which spends them on logins it answers. */
  private readonly lent = new Map<string, number>();

  constructor(
    private readonly connected: Map<string, ReadonlySet<unknown>>,
    /** Takes back the connections the native port holds unspent (they are `unlend`ed), so a login here can have one. */
    private readonly reclaim: (accountId: string) => void = () => {},
  ) {}

  /** Connections the account holds on this node, those being set up included. */
  held(accountId: string): number {
    return (this.connected.get(accountId)?.size ?? 0) + (this.reserved.get(accountId) ?? 0);
  }

  /** Takes one of the account's `max` connections, or null when this node holds them all. */
  take(accountId: string, max: number): Slot | null {
    if (this.held(accountId) >= max && this.lent.has(accountId)) this.reclaim(accountId);
    if (this.held(accountId) >= max) return null;
    addCount(this.reserved, accountId, 1);
    return new Reserved(this.reserved, accountId);
  }

  /** Lends `seats` of the account's connections to the native port: held here until spent or given back. */
  lend(accountId: string, seats: number): void {
    addCount(this.reserved, accountId, seats);
    addCount(this.lent, accountId, seats);
  }

  /** Connections lent and not spent, given back. */
  unlend(accountId: string, seats: number): void {
    addCount(this.reserved, accountId, -seats);
    addCount(this.lent, accountId, -seats);
  }

  /** A lent connection the native port spent on a login: a slot like `take`'s from now on. */
  spend(accountId: string): Slot {
    addCount(this.lent, accountId, -1);
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
    addCount(this.reserved, this.accountId, -1);
  }
}
