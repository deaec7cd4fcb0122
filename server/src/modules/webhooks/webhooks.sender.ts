import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@portal/contract';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256("<t>.<body>")>`: the timestamp is signed with the body, so it cannot be swapped. */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

// Where a delivery may never go unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is set (tests): the portal's own machine and
// network, cloud metadata services, and addresses that are not on the internet.
const privateRanges = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const REFUSED = 'refused: the address is not public';

export interface DeliveryResult {
  statusCode: number | null;
  /** The start of the answer, or why there was none. */
  response: string;
}

export interface SenderOptions {
  /** Tests: deliver to loopback and private addresses. Never in production (SSRF). */
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  /** Bytes of the answer read and kept; the rest is not read. */
  maxResponseBytes: number;
}

/**
 * POSTs one delivery. The address is checked after the name is resolved, in the lookup the connection itself uses,
 * so a name that resolves to a public address for a check and a private one for the connection gets nowhere. No
 * redirect is followed. The whole exchange is bounded in time and in the bytes read.
 */
export function deliver(
  url: string,
  headers: { event: string; deliveryId: string; signature: string },
  body: string,
  options: SenderOptions,
): Promise<DeliveryResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ statusCode: null, response: 'invalid URL' });
      return;
    }
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
    if (!client) {
      resolve({ statusCode: null, response: 'unsupported scheme' });
      return;
    }
    // An address written as such is connected to without a lookup: checked here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !options.allowPrivateAddresses && isPrivateAddress(literal)) {
      resolve({ statusCode: null, response: REFUSED });
      return;
    }
    const guardedLookup: typeof lookup = ((
      hostname: string,
      opts: object,
      callback: (err: NodeJS.ErrnoException | null, address: string | object[], family?: number) => void,
    ) => {
      lookup(hostname, { ...opts, all: true }, (err, addresses) => {
        if (err) return callback(err, '');
        const list = addresses as { address: string; family: number }[];
        if (!options.allowPrivateAddresses && list.some((a) => isPrivateAddress(a.address))) {
          return callback(Object.assign(new Error('private address refused'), { code: 'EPRIVATE' }), '');
        }
        if ((opts as { all?: boolean }).all) return callback(null, list);
        const first = list[0];
        if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '');
        return callback(null, first.address, first.family);
      });
    }) as typeof lookup;

    let settled = false;
    const finish = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'gnss-portal-webhooks/1',
          [WEBHOOK_EVENT_HEADER]: headers.event,
          [WEBHOOK_DELIVERY_HEADER]: headers.deliveryId,
          [WEBHOOK_SIGNATURE_HEADER]: headers.signature,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.maxResponseBytes) {
            finish({ statusCode: response.statusCode ?? null, response: text(chunks, options.maxResponseBytes) });
            response.destroy();
          }
        });
        response.on('end', () =>
          finish({ statusCode: response.statusCode ?? null, response: text(chunks, options.maxResponseBytes) }),
        );
        response.on('error', () =>
          finish({ statusCode: response.statusCode ?? null, response: text(chunks, options.maxResponseBytes) }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, response: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        response:
          err.code === 'EPRIVATE' ? 'refused: the address is not public' : `not reached (${err.code ?? err.message})`,
      }),
    );
    request.end(body);
  });
}

const text = (chunks: Buffer[], max: number) => Buffer.concat(chunks).subarray(0, max).toString('utf8');
