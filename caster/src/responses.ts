import type { DenyReason } from './ports.ts';

export const SERVER_NAME = 'NTRIP PortalCaster/1.0';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * A complete response with a text body. NTRIP 2 answers are HTTP/1.1 and always carry Ntrip-Version; NTRIP 1
 * clients get the HTTP/1.0 status lines the BKG caster sends them.
 */
export function errorResponse(
  version: 1 | 2,
  status: number,
  message: string,
  extraHeaders: Record<string, string> = {},
): Buffer {
  const body = `${message}\r\n`;
  const head = [
    `${version === 2 ? 'HTTP/1.1' : 'HTTP/1.0'} ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    ...(version === 2 ? ['Ntrip-Version: Ntrip/2.0'] : []),
    `Server: ${SERVER_NAME}`,
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}`),
    'Content-Type: text/plain',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

export function sourcetableResponse(version: 1 | 2, body: Buffer): Buffer {
  const head =
    version === 2
      ? [
          'HTTP/1.1 200 OK',
          'Ntrip-Version: Ntrip/2.0',
          `Server: ${SERVER_NAME}`,
          `Date: ${new Date().toUTCString()}`,
          'Content-Type: gnss/sourcetable',
          `Content-Length: ${body.length}`,
          'Connection: close',
        ]
      : ['SOURCETABLE 200 OK', `Server: ${SERVER_NAME}`, 'Content-Type: text/plain', `Content-Length: ${body.length}`];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

export const V1_OK = Buffer.from('ICY 200 OK\r\n\r\n', 'latin1');

export function v2StreamHeader(): Buffer {
  return Buffer.from(
    [
      'HTTP/1.1 200 OK',
      'Ntrip-Version: Ntrip/2.0',
      `Server: ${SERVER_NAME}`,
      `Date: ${new Date().toUTCString()}`,
      'Cache-Control: no-store, no-cache, max-age=0',
      'Pragma: no-cache',
      'Connection: close',
      'Content-Type: gnss/data',
      'Transfer-Encoding: chunked',
      '',
      '',
    ].join('\r\n'),
    'latin1',
  );
}

export function v2SourceOk(): Buffer {
  return Buffer.from(
    ['HTTP/1.1 200 OK', 'Ntrip-Version: Ntrip/2.0', `Server: ${SERVER_NAME}`, 'Connection: close', '', ''].join('\r\n'),
    'latin1',
  );
}

export const V1_BAD_PASSWORD = Buffer.from('ERROR - Bad Password\r\n', 'latin1');
export const V1_MOUNT_TAKEN = Buffer.from('ERROR - Mount Point Taken or Invalid\r\n', 'latin1');

/** What a refused rover is told, by the auth port's reason. */
export const DENIAL: Record<DenyReason, { status: number; text: string }> = {
  bad_credentials: { status: 401, text: 'Unauthorized: wrong username or password' },
  disabled: { status: 403, text: 'Forbidden: this NTRIP account is disabled' },
  no_grant: { status: 403, text: 'Forbidden: this account has no access to this network' },
  too_many_connections: { status: 429, text: 'Too many connections for this account' },
};

/** A refused rover whose account's owner left the organisation that owns the account. */
export const LEFT_ORGANIZATION = {
  status: 403,
  text: 'Forbidden: you are no longer a member of the organisation that owns this NTRIP account',
};
