import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TestCertificate {
  cert: string;
  key: string;
  /** SHA-256 fingerprint as Node's TLS reports it (`fingerprint256`). */
  fingerprint256: string;
}

const DAY = 86_400_000;

/** A self-signed certificate for localhost (EC, quick to make); `validDays` below 0 makes one that has expired. */
export async function localhostCertificate(validDays = 30): Promise<TestCertificate> {
  const now = Date.now();
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(now - 2 * DAY + Math.min(0, validDays) * DAY),
    notAfterDate: new Date(now + validDays * DAY),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: made.cert, key: made.private, fingerprint256: new X509Certificate(made.cert).fingerprint256 };
}

/** Writes the certificate and key where a caster's `tls` option names them. */
export async function writeCertificate(dir: string, certificate: TestCertificate) {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  await writeFile(certFile, certificate.cert);
  await writeFile(keyFile, certificate.key);
  return { certFile, keyFile };
}
