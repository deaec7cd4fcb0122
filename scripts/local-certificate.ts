import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

const DAY = 86_400_000;
/** Made again this long before it ends, so a portal left running over a few days keeps a valid one. */
const RENEW_BEFORE_DAYS = 30;

/**
 * The certificate `npm start` serves NTRIP over TLS with when none is configured (issue 38): self-signed for
 * localhost and 127.0.0.1, a year long, kept in `dir` and made again when missing or close to its end.
 * Clients connect with it trusted by hand or with verification off; a real deployment names its own files.
 */
export async function localCertificate(dir: string): Promise<{ certFile: string; keyFile: string; made: boolean }> {
  const certFile = join(dir, 'localhost-cert.pem');
  const keyFile = join(dir, 'localhost-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const validTo = new Date(new X509Certificate(readFileSync(certFile)).validTo).getTime();
    if (validTo - Date.now() > RENEW_BEFORE_DAYS * DAY) return { certFile, keyFile, made: false };
  }
  const now = Date.now();
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(now - DAY),
    notAfterDate: new Date(now + 365 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  // Each file replaced whole, the key first: a caster reloading in between sees a pair that does not match, keeps
  // the old one and takes the new pair at the certificate's change.
  writeFileSync(`${keyFile}.${process.pid}`, made.private, { mode: 0o600 });
  renameSync(`${keyFile}.${process.pid}`, keyFile);
  writeFileSync(`${certFile}.${process.pid}`, made.cert);
  renameSync(`${certFile}.${process.pid}`, certFile);
  return { certFile, keyFile, made: true };
}
