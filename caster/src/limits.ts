export interface CasterLimits {
  /** Time a client has to send its whole request head. */
  headerTimeoutMs: number;
  maxHeadBytes: number;
  /**
   * Connections the plain port holds at once. Past it Node's port closes new ones; the native port (ADR 0095) takes
   * no more until one ends, and the kernel's listen backlog holds them meanwhile.
   */
  maxConnections: number;
  /** A rover whose unsent bytes pass this is disconnected, so it cannot hold memory or delay the others. */
  roverBacklogBytes: number;
  /** A source that sends nothing for this long is dropped, so its reconnect is not refused as 'taken'. */
  sourceSilenceMs: number;
  /** A rover that was sent nothing for this long is closed. */
  roverIdleMs: number;
  /**
   * How often every connected rover's access is asked again (a grant ended early, an account disabled elsewhere);
   * a rover whose access reaches its end is asked about within a second of it, whatever this says.
   */
  accessRecheckMs: number;
  /** Longest NMEA line a rover may send; longer input is discarded. */
  maxRoverLineBytes: number;
  /** Failed-login throttling by (address, name), name and address: see LoginThrottleLimits and ADR 0015. */
  failedLoginsPerPair: number;
  failedLoginBackoffMs: number;
  failedLoginBackoffMaxMs: number;
  failedLoginsPerName: number;
  failedLoginsPerIp: number;
  failedLoginWindowMs: number;
  catalogueRefreshMs: number;
  statusIntervalMs: number;
  sessionBatchSize: number;
  sessionFlushMs: number;
  /** A station is online while a valid frame from its source arrived within this long (issue 17). */
  stationOnlineWindowMs: number;
  /** The nearest-station mountpoint switches only when the new station is this much closer. */
  nearHysteresisKm: number;
  pullRefreshMs: number;
  pullBackoffMinMs: number;
  pullBackoffMaxMs: number;
  announceIntervalMs: number;
  /** How often refused attempts are written (aggregated per account, reason and minute). */
  refusalFlushMs: number;
  /**
   * A rover that received no frame this long after login is reported (a station whose source sends nothing, no
   * position for NEAR). Below the 10 s RTKLIB's str2str waits for data before it gives up and connects again, so
   * its rover is still connected when it is reported.
   */
  firstDataWaitMs: number;
  /**
   * A login of the portal's connection test (AuthDecision.probe) is closed this long after it was let in: the test
   * listens no longer (the portal passes its CONNECTION_TEST_SECONDS), so whatever holds one past it is not the test.
   */
  connectionTestMs: number;
}

export const DEFAULT_LIMITS: CasterLimits = {
  headerTimeoutMs: 10_000,
  maxHeadBytes: 8 * 1024,
  maxConnections: 100_000,
  roverBacklogBytes: 64 * 1024,
  sourceSilenceMs: 15_000,
  roverIdleMs: 120_000,
  accessRecheckMs: 30_000,
  maxRoverLineBytes: 1024,
  failedLoginsPerPair: 5,
  failedLoginBackoffMs: 1_000,
  failedLoginBackoffMaxMs: 60_000,
  failedLoginsPerName: 50,
  failedLoginsPerIp: 300,
  failedLoginWindowMs: 60_000,
  catalogueRefreshMs: 10_000,
  statusIntervalMs: 10_000,
  sessionBatchSize: 500,
  sessionFlushMs: 5_000,
  stationOnlineWindowMs: 10_000,
  nearHysteresisKm: 5,
  pullRefreshMs: 30_000,
  pullBackoffMinMs: 1_000,
  pullBackoffMaxMs: 60_000,
  announceIntervalMs: 2_000,
  refusalFlushMs: 1_000,
  firstDataWaitMs: 8_000,
  connectionTestMs: 10_000,
};
