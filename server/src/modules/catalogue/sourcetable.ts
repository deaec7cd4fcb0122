import { MOUNTPOINT_PATTERN, navSystems, stationFormats } from '@portal/contract';

/** The station fields an STR record of an NTRIP sourcetable carries. */
export interface SourcetableStation {
  mountpoint: string;
  identifier: string;
  format: (typeof stationFormats)[number];
  formatDetails: string;
  carrier: 0 | 1 | 2;
  navSystem: string;
  country: string;
  latitude: number;
  longitude: number;
  receiver: string;
  bitrate: number;
}

export type SourcetableEntry =
  | { line: number; mountpoint: string; station: SourcetableStation }
  | { line: number; mountpoint: string | null; problem: string };

const NAV_ALIASES: Record<string, (typeof navSystems)[number]> = {
  GPS: 'GPS',
  NAVSTAR: 'GPS',
  GLO: 'GLO',
  GLONASS: 'GLO',
  GAL: 'GAL',
  GALILEO: 'GAL',
  BDS: 'BDS',
  BEIDOU: 'BDS',
  CMP: 'BDS',
  COMPASS: 'BDS',
  QZS: 'QZS',
  QZSS: 'QZS',
  IRN: 'IRN',
  IRNSS: 'IRN',
  NAVIC: 'IRN',
  SBAS: 'SBAS',
  SBS: 'SBAS',
};

function normaliseFormat(raw: string): SourcetableStation['format'] | null {
  const match = /^RTCM\s*3(?:\.(\d))?$/i.exec(raw.trim());
  if (!match) return null;
  const format = match[1] === undefined ? 'RTCM 3' : `RTCM 3.${match[1]}`;
  return (stationFormats as readonly string[]).includes(format) ? (format as SourcetableStation['format']) : null;
}

function normaliseNavSystem(raw: string): string | null {
  const found = new Set<string>();
  for (const token of raw
    .toUpperCase()
    .split(/[+,/ ]+/)
    .filter(Boolean)) {
    const system = NAV_ALIASES[token];
    if (!system) return null;
    found.add(system);
  }
  if (found.size === 0) return null;
  return navSystems.filter((s) => found.has(s)).join('+');
}

/** Sourcetable text has no room for ';' and we cap free text at the lengths the API accepts. */
const clip = (value: string | undefined, max: number) => (value ?? '').trim().slice(0, max);

function parseStr(fields: string[]): SourcetableStation | string {
  if (fields.length < 11) return `STR record has ${fields.length} fields; at least 11 (up to the longitude) are needed`;
  const [, mountpoint = '', identifier, formatRaw = '', details, carrierRaw = '', navRaw = '', , countryRaw = ''] =
    fields;
  if (!MOUNTPOINT_PATTERN.test(mountpoint)) {
    return `mountpoint '${mountpoint}' is not NTRIP-safe (letters, digits, _ and - only, at most 64)`;
  }
  const format = normaliseFormat(formatRaw);
  if (!format) return `format '${formatRaw}' is not RTCM 3; this caster carries RTCM 3 streams only`;
  const carrier = carrierRaw.trim() === '' ? 0 : Number(carrierRaw);
  if (carrier !== 0 && carrier !== 1 && carrier !== 2) return `carrier '${carrierRaw}' is not 0, 1 or 2`;
  const navSystem = normaliseNavSystem(navRaw);
  if (!navSystem) return `navigation system '${navRaw}' is not a '+'-list of ${navSystems.join(', ')}`;
  const country = countryRaw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(country)) return `country '${countryRaw}' is not an ISO 3166 alpha-3 code`;
  const latitude = Number(fields[9]);
  let longitude = Number(fields[10]);
  // Some casters write east longitudes as 0..360.
  if (longitude > 180 && longitude <= 360) longitude -= 360;
  if (fields[9]?.trim() === '' || !Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    return `latitude '${fields[9]}' is not a number between -90 and 90`;
  }
  if (fields[10]?.trim() === '' || !Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    return `longitude '${fields[10]}' is not a number between -180 and 180`;
  }
  if (latitude === 0 && longitude === 0) return 'position 0,0 is a placeholder, not a station position';
  const bitrate = Number.parseInt(fields[17] ?? '', 10);
  return {
    mountpoint,
    identifier: clip(identifier, 120),
    format,
    formatDetails: clip(details, 1000),
    carrier,
    navSystem,
    country,
    latitude,
    longitude,
    receiver: clip(fields[13], 64),
    bitrate: Number.isFinite(bitrate) && bitrate >= 0 && bitrate <= 10_000_000 ? bitrate : 0,
  };
}

/**
 * Reads the text of an NTRIP sourcetable as a caster answers it (with or without its status line and headers)
 * or as an operator pastes it. Every non-empty line is accounted for, so an import can say why a line did not
 * become a station.
 */
export function parseSourcetable(text: string): SourcetableEntry[] {
  const lines = text.split(/\r?\n/);
  const entries: SourcetableEntry[] = [];
  let index = 0;
  const firstContent = lines.findIndex((l) => l.trim() !== '');
  if (firstContent >= 0 && /^(SOURCETABLE|HTTP\/)/i.test(lines[firstContent]?.trim() ?? '')) {
    const blank = lines.findIndex((l, i) => i > firstContent && l.trim() === '');
    index = blank < 0 ? lines.length : blank + 1;
  }
  for (; index < lines.length; index++) {
    const raw = lines[index]?.trim() ?? '';
    const line = index + 1;
    if (raw === '' || raw.toUpperCase() === 'ENDSOURCETABLE') continue;
    const fields = raw.split(';');
    const type = fields[0]?.toUpperCase();
    if (type === 'CAS' || type === 'NET') {
      entries.push({ line, mountpoint: null, problem: `${type} record: only STR records become stations` });
      continue;
    }
    if (type !== 'STR') {
      entries.push({ line, mountpoint: null, problem: 'not a sourcetable record (STR, CAS or NET)' });
      continue;
    }
    const mountpoint = fields[1]?.trim() || null;
    const parsed = parseStr(fields.map((f) => f.trim()));
    entries.push(
      typeof parsed === 'string'
        ? { line, mountpoint, problem: parsed }
        : { line, mountpoint: parsed.mountpoint, station: parsed },
    );
  }
  return entries;
}
