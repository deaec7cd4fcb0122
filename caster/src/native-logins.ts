import type { AccountSlots, Slot } from './admission.ts';
import type { Clock } from './clock.ts';
import type { NativePort } from './native-io.ts';
import type { NtripRequest } from './request.ts';
import { V1_OK, v2StreamHeader } from './responses.ts';
import type { AdmittedRover } from './rover-login.ts';

/** A login the native thread answers itself while it holds, and the rover it lets in, but for its connection. */
export interface Grant {
  readonly id: number;
  readonly key: string;
  readonly version: 1 | 2;
  readonly rover: Omit<AdmittedRover, 'ip' | 'userAgent' | 'slot' | 'lease'>;
  /** When it no longer holds (the caster's clock). */
  readonly until: number;
  /** Its account was cut off after the native thread may have answered with it: such a rover is closed at once. */
  cut: boolean;
}

/** The mountpoints and Basic tokens native-io.c reads (`read_login`); anything else is never granted. */
const MOUNTPOINT = /^[A-Za-z0-9._-]{1,100}$/;
const BASIC = /^Basic\s+([A-Za-z0-9+/=]{1,512})\s*$/i;
/** native-io.c's table holds this many; past it the grants start again from none. */
const MAX_GRANTS = 65_536;
/** A grant shorter than this is not worth the native call. */
const MIN_TTL_MS = 100;
const MAX_SEATS = 2 ** 31 - 1;
const MAX_TTL_MS = 2 ** 31 - 1;

/**
 * The logins native-io.c answers without JavaScript (ADR 0100). A rover's login answered here once (the auth port's
 * decision, the account's seats, the throttle) is granted to the native thread for as long as the auth port says
 * the same login gets the same answer (`reusableMs`), and the account's free connections are lent to it: it spends
 * one per login it answers, so the account's limit holds across both. Grants are forgotten whenever an answer may
 * have changed: the auth port's `onChange`, a station or network leaving the catalogue, an account cut off; and an
 * address the login throttle holds failures for is answered by JavaScript only.
 */
export class NativeLogins {
  private readonly byKey = new Map<string, Grant>();
  private readonly byId = new Map<number, Grant>();
  /** Grants forgotten, by the native batch then received: records of the next two may still name them. */
  private readonly retired = new Map<number, { grant: Grant; batch: number }>();
  /** The native side's index of each account (its seats), and the accounts that may hold seats lent there. */
  private readonly accounts = new Map<string, number>();
  private readonly lending = new Set<string>();
  private nextId = 1;
  /** Rovers the native thread answered. */
  answered = 0;

  constructor(
    private readonly port: NativePort,
    private readonly slots: AccountSlots,
    private readonly clock: Clock,
  ) {}

  /**
   * A rover let in by JavaScript and registered: the same login (version, mountpoint, Basic token) is answered
   * natively from now on while it holds, spending the account's free connections (`max` of them on this node).
   */
  offer(req: NtripRequest, admitted: AdmittedRover, max: number): void {
    const { decision } = admitted;
    const now = this.clock.now();
    const ttl = Math.min(decision.reusableMs ?? 0, decision.until.getTime() - now, MAX_TTL_MS);
    if (decision.probe || !(ttl >= MIN_TTL_MS) || !MOUNTPOINT.test(req.mountpoint) || req.headers.has('ntrip-gga'))
      return;
    const token = BASIC.exec(req.headers.get('authorization') ?? '')?.[1];
    if (!token) return;
    const key = `${req.ntripVersion} ${req.mountpoint} ${token}`;
    const known = this.byKey.get(key);
    if (!known || known.until <= now) {
      if (!known && this.byKey.size >= MAX_GRANTS) this.forgetAll();
      const { mount, nearNetwork, name, suffixProfile } = admitted;
      const grant: Grant = {
        id: this.nextId++,
        key,
        version: req.ntripVersion,
        rover: { decision, mount, nearNetwork, name, suffixProfile },
        until: now + ttl,
        cut: false,
      };
      const response = grant.version === 2 ? v2StreamHeader() : V1_OK;
      const date = grant.version === 2 ? response.indexOf('Date: ') + 6 : -1;
      const { native, handle } = this.port;
      if (
        !native.grant(
          handle,
          Buffer.from(key, 'latin1'),
          grant.id,
          this.indexOf(decision.accountId),
          ttl,
          response,
          date,
        )
      )
        return;
      if (known) this.retire([known]);
      this.byKey.set(key, grant);
      this.byId.set(grant.id, grant);
    }
    const free = Math.min(max - this.slots.held(decision.accountId), MAX_SEATS);
    if (free <= 0) return;
    this.slots.lend(decision.accountId, free);
    this.lending.add(decision.accountId);
    this.port.native.lend(this.port.handle, this.indexOf(decision.accountId), free);
  }

  /** The grant a native record names; undefined only for one of an earlier caster. */
  grant(id: number): Grant | undefined {
    return this.byId.get(id) ?? this.retired.get(id)?.grant;
  }

  /** A rover the native thread answered: its seat, lent before, is now a slot like a login's. */
  spent(grant: Grant): Slot {
    this.answered++;
    return this.slots.spend(grant.rover.decision.accountId);
  }

  /** The account's seats not spent natively come back (a login through JavaScript needs one of them). */
  reclaim(accountId: string): void {
    if (!this.lending.delete(accountId)) return;
    const { native, handle } = this.port;
    this.slots.unlend(accountId, native.reclaim(handle, this.indexOf(accountId)));
  }

  /** Every answer may have changed (the auth port's `onChange`, the catalogue): nothing is answered natively. */
  forgetAll(): void {
    const { native, handle } = this.port;
    native.forget(handle, -1);
    for (const accountId of [...this.lending]) this.reclaim(accountId);
    this.retire([...this.byKey.values()]);
  }

  /** An account cut off: its logins go to JavaScript, and a rover answered natively meanwhile is closed. */
  forgetAccount(accountId: string): void {
    const index = this.accounts.get(accountId);
    if (index === undefined) return;
    this.port.native.forget(this.port.handle, index);
    this.reclaim(accountId);
    const ofAccount = (grant: Grant) => grant.rover.decision.accountId === accountId;
    for (const { grant } of this.retired.values()) if (ofAccount(grant)) grant.cut = true;
    const cut = [...this.byKey.values()].filter(ofAccount);
    for (const grant of cut) grant.cut = true;
    this.retire(cut);
  }

  /** The login throttle holds failures for an address (or no more): its logins go to JavaScript meanwhile. */
  suspect(address: string, held: boolean): void {
    this.port.native.suspect(this.port.handle, address, held);
  }

  private retire(grants: Grant[]): void {
    const { batches, settled } = this.port;
    for (const [id, { batch }] of this.retired) if (batch + 2 <= settled) this.retired.delete(id);
    for (const grant of grants) {
      this.byKey.delete(grant.key);
      this.byId.delete(grant.id);
      this.retired.set(grant.id, { grant, batch: batches });
    }
  }

  private indexOf(accountId: string): number {
    let index = this.accounts.get(accountId);
    if (index === undefined) {
      index = this.accounts.size;
      this.accounts.set(accountId, index);
    }
    return index;
  }
}
