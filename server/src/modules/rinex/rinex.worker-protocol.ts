/** Messages between the job runner (parent) and a conversion worker thread (rinex.worker.ts). */

export interface WorkerJob {
  id: string;
  /** Stored hours to read, oldest first: the mountpoint each was stored under and its start (Unix ms). */
  hours: Array<{ mountpoint: string; hour: number }>;
  /** Window [from, to), Unix ms, whole UTC hours. */
  from: number;
  to: number;
  interval: number;
  /** RINEX letters, e.g. "GREC". */
  systems: string;
  outDir: string;
  /** PGM / RUN BY / DATE's creation time (ISO). */
  createdAt: string;
  runBy: string;
  station: {
    mountpoint: string;
    identifier: string;
    country: string;
    networkName: string;
    networkOperator: string;
    /** The network's reference frame as one line; null when its operator has not set it. */
    referenceFrame: string | null;
    latitude: number;
    longitude: number;
    heightM: number | null;
    receiver: string;
    antenna: string;
  };
}

export type ParentMessage = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

export type WorkerMessage =
  | { type: 'read'; mountpoint: string; hour: number }
  | { type: 'ack' }
  | { type: 'progress'; value: number }
  | { type: 'done'; zipPath: string; zipName: string; epochs: number; files: string[] }
  /** The data could not be converted (no observations in the window, …): the job fails and is refunded. */
  | { type: 'failed'; code: string; message: string }
  | { type: 'crashed'; message: string };
