import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startCasterProcess } from './support/caster-process.ts';

/** NTRIP over TLS (issue 38): its settings, and a certificate the caster cannot serve stops the server's start. */
const base = { FIREBASE_PROJECT_ID: 'demo-gnss-portal' };
const dir = mkdtempSync(join(tmpdir(), 'config-caster-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('caster TLS configuration', () => {
  it('serves TLS on 2102 by default, on the ports listed, and wants both files or neither', () => {
    expect(loadConfig(base)).toMatchObject({ CASTER_TLS_PORTS: [2102] });
    expect(loadConfig({ ...base, CASTER_TLS_PORTS: '2102, 443' }).CASTER_TLS_PORTS).toEqual([2102, 443]);
    expect(() => loadConfig({ ...base, CASTER_TLS_PORTS: '2102,https' })).toThrow(/CASTER_TLS_PORTS/);
    expect(() => loadConfig({ ...base, CASTER_TLS_CERT: '/etc/caster/cert.pem' })).toThrow(
      /Invalid configuration:\n {2}CASTER_TLS_KEY: the TLS port needs both the certificate and the key file/,
    );
  });

  it('refuses to start the server with an expired certificate, saying which file and since when', async () => {
    const day = 86_400_000;
    const expired = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      notBeforeDate: new Date(Date.now() - 30 * day),
      notAfterDate: new Date(Date.now() - day),
    });
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    writeFileSync(certFile, expired.cert);
    writeFileSync(keyFile, expired.private);
    const server = startCasterProcess('npm start', {
      ...base,
      PGLITE_DATA_DIR: 'memory://',
      CASTER_TLS_CERT: certFile,
      CASTER_TLS_KEY: keyFile,
    });
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain(
      `Invalid configuration:\n  CASTER_TLS_CERT, CASTER_TLS_KEY: TLS certificate ${certFile} expired on `,
    );
    expect(output).not.toContain('NTRIP caster listening');
  });
});
