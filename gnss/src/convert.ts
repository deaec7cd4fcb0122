/**
 * RTCM 3 → RINEX 3.04 conversion. The input is read twice, as convbin does: a scan finds the signals, station and
 * GLONASS channels the header must list and decides which epochs are written; the second pass writes them. Both
 * passes stream, so memory does not grow with the input, and output goes to temporary files renamed into place
 * only on success.
 */
import { createReadStream } from 'node:fs';
import { decodeEphemeris, EPHEMERIS_MESSAGE_TYPES, EphemerisDecodeError, NAV_SYSTEMS, NavWriter } from './nav/index.ts';
import type { NavSystem } from './nav/types.ts';
import { type BeidouTimeTag, isObservationMessage, ObservationDecoder } from './obs/decoder.ts';
import { EpochSelector } from './obs/select.ts';
import { type GnssSystem, SYSTEMS } from './obs/signals.ts';
import type { ObservationEpoch } from './obs/types.ts';
import { formatObsHeader, ObsTypeCollector, writeObsEpoch } from './rinex/obs-writer.ts';
import { AtomicTextFile } from './rinex/output.ts';
import { decodeStationMessage, emptyStation, STATION_MESSAGES, type StationInfo } from './station.ts';
import type { GpsTime } from './time.ts';
import { frameMessageType, framePayload, RtcmFramer } from './transport.ts';

/** Opens the RTCM 3 byte stream; called once per pass (twice). */
export type RtcmSource = () => AsyncIterable<Uint8Array>;

/** A source reading files one after the other (an hour's archive file, or several). */
export function fileSource(...paths: string[]): RtcmSource {
  return async function* () {
    for (const path of paths) yield* createReadStream(path, { highWaterMark: 64 * 1024 });
  };
}

export const INTERVALS = [1, 5, 15, 30] as const;
const PROGRAM = 'portal-rinex';

export interface ConvertOptions {
  input: RtcmSource;
  /** Any GPS time within half a week of the data (the archive's hour, the CLI's --time); fixes the week. */
  approxTime: GpsTime;
  /** Write only epochs on whole multiples of this many seconds: 1, 5, 15 or 30. Default: every epoch. */
  interval?: number;
  /** Constellations as RINEX letters, e.g. "GREC". Default: all of G R E J S C I. */
  systems?: string;
  /** Epochs from start (inclusive) to end (exclusive), GPS time. */
  window?: { start?: GpsTime; end?: GpsTime };
  /** Observation file path; ".gz" (or gzip: true) compresses it. */
  obsOut?: string;
  /** Navigation file path; ".gz" (or gzip: true) compresses it. */
  navOut?: string;
  gzip?: boolean;
  /** MARKER NAME; default: the RTCM station ID as four digits, as convbin writes it. */
  marker?: string;
  observer?: string;
  agency?: string;
  runBy?: string;
  /** PGM / RUN BY / DATE's date (default now), fixed in tests to compare whole files. */
  createdAt?: Date;
  beidouTime?: BeidouTimeTag;
}

export interface ConversionResult {
  epochs: number;
  firstEpoch: GpsTime;
  lastEpoch: GpsTime;
  /** Observation types per system as written in the header. */
  obsTypes: Record<string, string[]>;
  station: StationInfo;
  frames: number;
  /** Bytes outside valid frames: junk, frames failing their CRC, frames cut at the start or end. */
  droppedBytes: number;
  navRecords: number;
  warnings: string[];
}

export type ConversionErrorCode =
  | 'bad_option'
  | 'not_rtcm'
  | 'crc_mismatch'
  | 'truncated'
  | 'no_observations'
  | 'no_data_in_window';

export class ConversionError extends Error {
  constructor(
    readonly code: ConversionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConversionError';
  }
}

export function parseSystems(text: string | undefined): GnssSystem[] {
  if (text === undefined || text === '') return [...SYSTEMS];
  const out: GnssSystem[] = [];
  for (const letter of text.toUpperCase()) {
    if (!SYSTEMS.includes(letter as GnssSystem)) {
      throw new ConversionError('bad_option', `unknown constellation "${letter}" (use letters of ${SYSTEMS.join('')})`);
    }
    if (!out.includes(letter as GnssSystem)) out.push(letter as GnssSystem);
  }
  return SYSTEMS.filter((s) => out.includes(s));
}

interface Pass {
  frames: number;
  droppedBytes: number;
  crcFailures: number;
  cutBytes: number;
  inputBytes: number;
  epochsDecoded: number;
  decoder: ObservationDecoder;
  station: StationInfo;
}

/** Ephemerides through a NavWriter; malformed ephemeris frames are counted and skipped. */
function navFeeder(writer: NavWriter | null, decoder: ObservationDecoder, counts: { malformed: number }) {
  return (type: number, payload: Buffer) => {
    if (!writer || !EPHEMERIS_MESSAGE_TYPES.has(type)) return;
    try {
      const eph = decodeEphemeris(payload, decoder.time, true);
      if (eph) writer.add(eph);
    } catch (e) {
      if (!(e instanceof EphemerisDecodeError)) throw e;
      counts.malformed++;
    }
  };
}

async function runPass(
  options: ConvertOptions,
  decoder: ObservationDecoder,
  onFrame: ((type: number, payload: Buffer) => void) | null,
  afterChunk: () => Promise<void>,
  counter: { epochs: number },
): Promise<Pass> {
  const station = emptyStation();
  let frames = 0;
  const framer = new RtcmFramer((frame) => {
    frames++;
    const type = frameMessageType(frame);
    const payload = framePayload(frame);
    if (STATION_MESSAGES.has(type)) decodeStationMessage(payload, station);
    if (isObservationMessage(type)) decoder.decode(payload);
    onFrame?.(type, payload);
  });
  let inputBytes = 0;
  for await (const chunk of options.input()) {
    inputBytes += chunk.length;
    framer.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    await afterChunk();
  }
  const cutBytes = framer.pendingBytes;
  framer.end();
  decoder.end();
  return {
    frames,
    droppedBytes: framer.droppedBytes,
    crcFailures: framer.crcFailures,
    cutBytes,
    inputBytes,
    epochsDecoded: counter.epochs,
    decoder,
    station,
  };
}

function validate(options: ConvertOptions): GnssSystem[] {
  if (options.interval !== undefined && !(INTERVALS as readonly number[]).includes(options.interval)) {
    throw new ConversionError('bad_option', `interval must be one of ${INTERVALS.join(', ')} seconds`);
  }
  if (!options.obsOut && !options.navOut) {
    throw new ConversionError('bad_option', 'nothing to write: give an observation and/or a navigation output');
  }
  return parseSystems(options.systems);
}

function inputProblem(scan: Pass): ConversionError | null {
  if (scan.frames > 0) return null;
  if (scan.inputBytes === 0) return new ConversionError('not_rtcm', 'the input is empty');
  // Damaged RTCM shows many frame candidates failing their CRC; arbitrary bytes rarely even look like a frame.
  if (scan.crcFailures > 0 && scan.crcFailures * 2000 >= scan.inputBytes) {
    return new ConversionError(
      'crc_mismatch',
      `no RTCM 3 frame passed its CRC-24Q check (${scan.crcFailures} candidate frames failed): the input is damaged`,
    );
  }
  if (scan.cutBytes > 0 && scan.cutBytes === scan.inputBytes) {
    return new ConversionError(
      'truncated',
      `the input ends inside its first RTCM 3 frame (${scan.cutBytes} bytes of it): it is truncated`,
    );
  }
  return new ConversionError('not_rtcm', `no RTCM 3 frame in ${scan.inputBytes} bytes of input: it is not RTCM 3`);
}

/**
 * Converts RTCM 3 to a RINEX 3.04 observation file (and, with navOut, a navigation file). Throws a ConversionError
 * (with a code) for unusable input or options, leaving no output file behind.
 */
export async function convertRtcmToRinex(options: ConvertOptions): Promise<ConversionResult> {
  const systems = validate(options);
  const selection = {
    systems: new Set(systems),
    interval: options.interval,
    start: options.window?.start,
    end: options.window?.end,
  };

  // Pass 1: what will be written.
  const scanCount = { epochs: 0 };
  const selector = new EpochSelector(selection);
  const collector = new ObsTypeCollector();
  let first: GpsTime | null = null;
  let last: GpsTime | null = null;
  let selected = 0;
  const scanDecoder = new ObservationDecoder(
    { approxTime: options.approxTime, beidouTime: options.beidouTime },
    (epoch) => {
      scanCount.epochs++;
      const kept = selector.select(epoch);
      if (!kept) return;
      collector.add(kept);
      first ??= kept.time;
      last = kept.time;
      selected++;
    },
  );
  const navSystems = systems.filter((x): x is NavSystem => (NAV_SYSTEMS as readonly string[]).includes(x));
  const navOptions = {
    systems: navSystems.join(''),
    from: options.window?.start,
    to: options.window?.end,
    program: PROGRAM,
    runBy: options.runBy ?? '',
  };
  const navCount =
    options.navOut && navSystems.length > 0
      ? new NavWriter({ write: () => true }, { ...navOptions, countOnly: true })
      : null;
  const navProblems = { malformed: 0 };
  const scan = await runPass(
    options,
    scanDecoder,
    navFeeder(navCount, scanDecoder, navProblems),
    async () => {},
    scanCount,
  );
  const problem = inputProblem(scan);
  if (problem) throw problem;
  const obsTypes = collector.types();
  if (options.obsOut) {
    if (scan.epochsDecoded === 0) {
      throw new ConversionError(
        'no_observations',
        `the input has ${scan.frames} RTCM 3 frames but no observation epoch (MSM4–7, 1002/1004, 1010/1012)`,
      );
    }
    if (selected === 0 || !first || !last || obsTypes.size === 0) {
      throw new ConversionError(
        'no_data_in_window',
        `none of the ${scan.epochsDecoded} observation epochs lies in the requested window, interval and constellations`,
      );
    }
  }

  const navRecords = navCount?.written ?? 0;
  if (options.navOut && navRecords === 0) {
    const why = `no ephemeris (1019, 1020, 1041, 1042, 1044, 1045, 1046) for the requested constellations and window`;
    if (!options.obsOut) throw new ConversionError('no_data_in_window', `${why}`);
  }

  const warnings: string[] = [];
  if (options.navOut && navRecords === 0) warnings.push('the navigation file has no ephemeris, only its header');
  if (navProblems.malformed > 0) warnings.push(`${navProblems.malformed} malformed ephemeris message(s) skipped`);
  if (scan.decoder.stats.beidouTaggedGpst) {
    warnings.push('BeiDou MSM epochs were tagged in GPS time by the receiver; they are written at their true time');
  }
  if (scan.decoder.stats.incompleteEpochs > 0) {
    warnings.push(`${scan.decoder.stats.incompleteEpochs} epoch(s) without their last message were left out`);
  }
  if (scan.cutBytes > 0) warnings.push(`the input ends inside a frame (${scan.cutBytes} bytes of it were skipped)`);
  const skipped = scan.droppedBytes - scan.cutBytes;
  if (skipped > 0) warnings.push(`${skipped} bytes outside valid frames (junk, CRC failures, cut frames) were skipped`);

  // Pass 2: write.
  const gzip = options.gzip ?? false;
  const obsFile = options.obsOut ? new AtomicTextFile(options.obsOut, gzip || options.obsOut.endsWith('.gz')) : null;
  const navFile = options.navOut ? new AtomicTextFile(options.navOut, gzip || options.navOut.endsWith('.gz')) : null;
  const outputs = [obsFile, navFile].filter((x): x is AtomicTextFile => x !== null);
  try {
    const createdAt = options.createdAt ?? new Date();
    const navWriter = navFile ? new NavWriter(navFile, { ...navOptions, created: createdAt }) : null;
    const writeSelector = new EpochSelector(selection);
    if (obsFile && first && last) {
      obsFile.write(
        formatObsHeader({
          obsTypes,
          systems,
          station: scan.station,
          marker:
            options.marker ?? (scan.station.stationId === null ? '' : String(scan.station.stationId).padStart(4, '0')),
          observer: options.observer ?? '',
          agency: options.agency ?? '',
          program: PROGRAM,
          runBy: options.runBy ?? '',
          createdAt,
          interval: options.interval,
          firstEpoch: first,
          lastEpoch: last,
          glonassChannels: scan.decoder.glonassChannels,
          comments: scan.decoder.stats.beidouTaggedGpst
            ? ['BeiDou MSM were tagged in GPST by the receiver (not BDT);', 'their epochs are corrected by 14 s.']
            : [],
        }),
      );
    }
    let written = 0;
    const writeCount = { epochs: 0 };
    const decoder = new ObservationDecoder(
      {
        approxTime: options.approxTime,
        beidouTime: scan.decoder.stats.beidouTaggedGpst ? 'gpst' : options.beidouTime,
        glonassChannels: scan.decoder.glonassChannels,
      },
      (epoch: ObservationEpoch) => {
        writeCount.epochs++;
        const kept = writeSelector.select(epoch);
        if (!kept || !obsFile) return;
        writeObsEpoch(kept, obsTypes, obsFile);
        written++;
      },
    );
    await runPass(
      options,
      decoder,
      navFeeder(navWriter, decoder, { malformed: 0 }),
      async () => {
        for (const o of outputs) await o.drain();
      },
      writeCount,
    );
    for (const o of outputs) await o.commit();
    return {
      epochs: written,
      firstEpoch: first ?? options.approxTime,
      lastEpoch: last ?? options.approxTime,
      obsTypes: Object.fromEntries(obsTypes),
      station: scan.station,
      frames: scan.frames,
      droppedBytes: scan.droppedBytes,
      navRecords: navWriter?.written ?? 0,
      warnings,
    };
  } catch (e) {
    await Promise.all(outputs.map((o) => o.abort()));
    throw e;
  }
}
