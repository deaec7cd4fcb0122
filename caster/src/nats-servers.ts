/**
 * The NATS servers of a CASTER_BUS_URL: one address, or the members of a cluster comma separated, so a process that
 * starts while one member is down connects to another (once connected, the client learns the rest from the server).
 */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
