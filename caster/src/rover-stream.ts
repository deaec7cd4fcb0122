import type { AccessWatch } from './access-watch.ts';
import { type ClientConnection, EMPTY, remoteOf } from './connection.ts';
import type { FirstDataWatch } from './first-data.ts';
import { readGga } from './gga.ts';
import type { CasterLimits } from './limits.ts';
import type { NativeConnection } from './native-io.ts';
import type { Grant, NativeLogins } from './native-logins.ts';
import { type Mount, Rover } from './relay/mount.ts';
import { roverOutput } from './relay/profiles.ts';
import type { Rovers } from './relay/rovers.ts';
import type { NtripRequest } from './request.ts';
import { V1_OK, v2StreamHeader } from './responses.ts';
import { type AdmittedRover, admitRover, type RoverLoginDeps } from './rover-login.ts';
import { RoverFix } from './telemetry/fix.ts';

export interface RoverStreamDeps extends RoverLoginDeps {
  limits: Pick<CasterLimits, 'roverBacklogBytes' | 'maxRoverLineBytes' | 'connectionTestMs'>;
  /** The logins the native port answers itself (ADR 0100); null where it does not (Node's port, a caster cluster). */
  nativeLogins(): NativeLogins | null;
  rovers: Rovers;
  firstData: Pick<FirstDataWatch, 'add' | 'offline'>;
  /** Whether a source feeds the station, on this node or another. */
  online(mount: Mount): boolean;
  access: Pick<AccessWatch, 'added'>;
}

/**
 * A rover's connection (GET) once admitted: the stream's header, its station (or the wait for a position on a
 * nearest-station mountpoint), the GGA lines it sends, and its end when the socket closes.
 */
export async function serveRover(socket: ClientConnection, req: NtripRequest, rest: Buffer, deps: RoverStreamDeps) {
  const admitted = await admitRover(socket, req, deps);
  if (!admitted) return;
  // Granted before the answer, so the rover's next login finds it.
  if (rest.length === 0) {
    const { accountId, maxConnections } = admitted.decision;
    deps.nativeLogins()?.offer(req, admitted, maxConnections - deps.remoteCount(accountId));
  }
  startRover(socket, req.ntripVersion, req.headers.get('ntrip-gga'), rest, admitted, deps, true);
}

/**
 * A rover the native port answered from a grant (ADR 0100): its login was JavaScript's before, its connection the
 * grant's account's lent to the native port; once registered, it is a rover as any other.
 */
export function serveAnswered(
  connection: NativeConnection,
  grant: Grant,
  userAgent: string | null,
  deps: RoverStreamDeps,
  logins: NativeLogins,
): void {
  const slot = logins.spent(grant);
  if (grant.cut) {
    slot.release();
    connection.destroy();
    return;
  }
  const admitted = { ...grant.rover, ip: remoteOf(connection), userAgent, slot, lease: null };
  startRover(connection, grant.version, undefined, EMPTY, admitted, deps, false);
}

/** A rover let in: registered, answered (unless the native port answered it), given its station and its input. */
function startRover(
  socket: ClientConnection,
  v: 1 | 2,
  headerGga: string | undefined,
  rest: Buffer,
  admitted: AdmittedRover,
  deps: RoverStreamDeps,
  answer: boolean,
) {
  const { limits, clock, rovers } = deps;
  const { decision, mount, nearNetwork, name, ip, userAgent, slot, lease } = admitted;
  const rover = new Rover(
    socket,
    v,
    decision.accountId,
    mount ? mount.info.network : (nearNetwork as string),
    decision.until.getTime(),
    name,
    nearNetwork ?? null,
    ip,
    limits.roverBacklogBytes,
    rovers.onSlow,
    clock.now(),
  );
  rover.userAgent = userAgent;
  rover.output = roverOutput(admitted.suffixProfile ?? decision.rtcmProfile, decision.constellations);
  rover.lease = lease;
  rovers.register(rover);
  // Counted as a registered rover now, in the same step: the login's reservation is no longer needed.
  slot?.release();
  deps.access.added(rover);
  // The portal's connection test takes one of the account's connections and ends with the account's access like any
  // rover, and by itself when the test is over (docs/adr/0050-no-published-secret.md). It reports its own silence.
  if (decision.probe) {
    const cap = clock.setTimeout(() => rovers.end(rover, 'access_revoked'), limits.connectionTestMs);
    socket.once('close', () => clock.clear(cap));
  } else {
    if (mount && !deps.online(mount)) deps.firstData.offline(rover);
    deps.firstData.add(rover);
  }
  if (answer) socket.write(v === 2 ? v2StreamHeader() : V1_OK);
  const events = roverEvents(deps);
  (socket as RoverSocket)[ROVER] = rover;
  socket.on('data', events.data);
  socket.on('close', events.close);
  socket.on('error', events.error);
  if (headerGga) events.line(rover, headerGga);
  if (mount) rovers.attach(rover, mount);
  else if (!rover.mount) rovers.nearWaiting.add(rover);
  if (rest.length) rover.readLines(rest, limits.maxRoverLineBytes, events.line);
}

/** A rover's socket knows its rover, so one set of listeners serves every rover of the caster. */
const ROVER = Symbol('rover');
type RoverSocket = ClientConnection & { [ROVER]?: Rover };

interface RoverEvents {
  data(this: ClientConnection, chunk: Buffer): void;
  close(this: ClientConnection): void;
  error(this: ClientConnection): void;
  line(rover: Rover, line: string): void;
}

/**
 * The listeners of every rover's socket, made once per caster: listeners made per rover (four closures and their
 * scope) were a fifth of what a rover's objects weighed (docs/performance.md, memory per rover).
 */
const eventsOf = new WeakMap<RoverStreamDeps, RoverEvents>();
function roverEvents(deps: RoverStreamDeps): RoverEvents {
  const made = eventsOf.get(deps);
  if (made) return made;
  const { limits, clock, rovers } = deps;
  const line = (rover: Rover, text: string) => {
    const gga = readGga(text);
    if (!gga) return;
    rover.fix ??= new RoverFix();
    rover.fix.record(gga, clock.now());
    if (!gga.position) return;
    rover.position = gga.position;
    rovers.choose(rover);
  };
  const events: RoverEvents = {
    data(chunk) {
      (this as RoverSocket)[ROVER]?.readLines(chunk, limits.maxRoverLineBytes, line);
    },
    close() {
      const rover = (this as RoverSocket)[ROVER];
      if (rover) rovers.end(rover, 'client_closed');
    },
    error() {
      const rover = (this as RoverSocket)[ROVER];
      if (rover) rovers.end(rover, 'error');
    },
    line,
  };
  eventsOf.set(deps, events);
  return events;
}
