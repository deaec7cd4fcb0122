/**
 * Where rovers connect: the caster's public host, plain port and TLS port from the build configuration (spec §9,
 * VITE_RELAY_HOST / VITE_RELAY_PORT / VITE_RELAY_TLS_PORT). Without them, the host serving the portal, the NTRIP
 * default port and the caster's default TLS port (CASTER_TLS_PORTS, ADR 0076).
 */
export const DEFAULT_RELAY_PORT = 2101;
export const DEFAULT_RELAY_TLS_PORT = 2102;

const tcpPort = (value: string | undefined, fallback: number) => {
  const port = Number.parseInt(value ?? '', 10);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : fallback;
};

export function relayAddress(
  env: { VITE_RELAY_HOST?: string; VITE_RELAY_PORT?: string; VITE_RELAY_TLS_PORT?: string } = import.meta.env,
): {
  host: string;
  port: number;
  tlsPort: number;
} {
  const host = env.VITE_RELAY_HOST?.trim() || (typeof window === 'undefined' ? 'localhost' : window.location.hostname);
  return {
    host,
    port: tcpPort(env.VITE_RELAY_PORT, DEFAULT_RELAY_PORT),
    tlsPort: tcpPort(env.VITE_RELAY_TLS_PORT, DEFAULT_RELAY_TLS_PORT),
  };
}
