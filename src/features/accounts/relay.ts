/**
 * Where rovers connect: the caster's public host and port from the build configuration (spec §9,
 * VITE_RELAY_HOST / VITE_RELAY_PORT). Without them, the host serving the portal and the NTRIP default port.
 */
export const DEFAULT_RELAY_PORT = 2101;

export function relayAddress(env: { VITE_RELAY_HOST?: string; VITE_RELAY_PORT?: string } = import.meta.env): {
  host: string;
  port: number;
} {
  const host = env.VITE_RELAY_HOST?.trim() || (typeof window === 'undefined' ? 'localhost' : window.location.hostname);
  const port = Number.parseInt(env.VITE_RELAY_PORT ?? '', 10);
  return { host, port: Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_RELAY_PORT };
}
