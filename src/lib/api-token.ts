type TokenSource = () => Promise<string | null>;
let tokenSource: TokenSource = async () => null;

/**
 * Firebase Auth registers how to get a fresh ID token as it starts (lib/firebase.ts); every API call then carries it
 * as a bearer credential. Apart from lib/api.ts so that registering it does not bring axios into the first load.
 */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export function currentToken(): Promise<string | null> {
  return tokenSource();
}

let inviteTokenSource: () => string | undefined = () => undefined;

/**
 * The invite link this tab holds rides along with signed-in calls, so that a portal whose sign-up is invite-only
 * admits its holder on their first authenticated call (docs/adr/0033); the server reads it for nobody else.
 */
export function setInviteTokenSource(source: () => string | undefined): void {
  inviteTokenSource = source;
}

export function currentInviteToken(): string | undefined {
  return inviteTokenSource();
}
