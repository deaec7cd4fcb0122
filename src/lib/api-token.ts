type TokenSource = () => Promise<string | null>;
let tokenSource: TokenSource = async () => null;

/**
 * The auth provider registers how to get a fresh ID token; every API call then carries it as a bearer credential.
 * Apart from lib/api.ts so that registering it does not bring axios into the first load.
 */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export function currentToken(): Promise<string | null> {
  return tokenSource();
}
