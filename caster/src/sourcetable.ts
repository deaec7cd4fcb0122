import type { CatalogueMountpoint, CatalogueNetwork } from './ports.ts';

/** The CAS record of this caster. */
export interface CasterIdentity {
  host: string;
  port: number;
  identifier: string;
  operator: string;
  country: string;
  latitude: number;
  longitude: number;
  url: string;
}

/** What the CAS record says where the caster's options leave a field out. */
export const DEFAULT_IDENTITY: CasterIdentity = {
  host: 'localhost',
  port: 2101,
  identifier: 'PortalCaster',
  operator: 'GNSS portal',
  country: 'NLD',
  latitude: 52,
  longitude: 5,
  url: 'http://localhost:8080',
};

export interface NearMountpoint {
  mountpoint: string;
  network: CatalogueNetwork;
  latitude: number;
  longitude: number;
  country: string;
  navSystem: string;
  format: string;
}

/** ';' separates fields and a line break ends a record, so neither may appear inside a field. */
const field = (value: string | number) => String(value).replace(/[;\r\n]/g, ' ');
const coord = (value: number) => value.toFixed(2);

/** The misc field: the network's reference frame and any notice, or 'none'. */
const misc = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(', ') || 'none';

/**
 * `notice`: the misc field's text, e.g. that the station is out of the nearest-station choice (issue 33); `frame`:
 * the network's reference frame (issue 32), first in the misc field.
 */
export function strRecord(m: CatalogueMountpoint, notice: string | null = null, frame: string | null = null): string[] {
  const s = m.str;
  return [
    'STR',
    m.mountpoint,
    s.identifier,
    s.format,
    s.formatDetails,
    String(s.carrier),
    s.navSystem,
    m.network,
    s.country,
    coord(m.latitude),
    coord(m.longitude),
    '0',
    '0',
    s.receiver,
    'none',
    'B',
    'Y',
    String(s.bitrate),
    misc(frame, notice),
  ].map(field);
}

export function nearRecord(n: NearMountpoint): string[] {
  return [
    'STR',
    n.mountpoint,
    `Nearest station of ${n.network.name}`,
    n.format,
    '',
    '2',
    n.navSystem,
    n.network.slug,
    n.country,
    coord(n.latitude),
    coord(n.longitude),
    '1',
    '0',
    'nearest online station',
    'none',
    'B',
    'Y',
    '0',
    misc(n.network.frame),
  ].map(field);
}

export function casRecord(c: CasterIdentity): string[] {
  return [
    'CAS',
    c.host,
    String(c.port),
    c.identifier,
    c.operator,
    '1',
    c.country,
    coord(c.latitude),
    coord(c.longitude),
    '0.0.0.0',
    '0',
    c.url,
  ].map(field);
}

export function netRecord(n: CatalogueNetwork): string[] {
  return ['NET', n.slug, n.operator || n.name, 'B', 'Y', n.webUrl, n.webUrl, n.webUrl, 'none'].map(field);
}

/**
 * Letters and digits only, lower case: what `~` compares, so that spelling differences in spaces, dots,
 * dashes, plus signs and case do not matter ('RTCM 3.3' and 'rtcm3.3' both become 'rtcm33').
 */
const approximate = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * One condition of an NTRIP 2.0 sourcetable filter field: text with '*' wildcards (case-insensitive),
 * '~' approximate text, '!' negation, '<' '>' '<=' '>=' '=' numeric comparisons, combined with '|' (or)
 * and '&' (and).
 *
 * The standard names '~' "approximately" without defining it, so this caster chooses: `~TEXT` matches when
 * the field, reduced to lower-case letters and digits, contains TEXT reduced the same way (a '*' in TEXT is
 * dropped like any other punctuation). `~rtcm3` finds 'RTCM 3.2' and 'RTCM 3.3', `~gal` finds 'GPS+GAL+BDS'.
 * Substring containment keeps the result predictable for a client and needs no similarity threshold.
 */
function matches(condition: string, value: string): boolean {
  if (condition === '') return true;
  if (condition.includes('|')) return condition.split('|').some((c) => matches(c, value));
  if (condition.includes('&')) return condition.split('&').every((c) => matches(c, value));
  if (condition.startsWith('!')) {
    // A loop rather than one recursion per '!': a head of many '!' would otherwise copy the rest each time.
    let bangs = 0;
    while (condition[bangs] === '!') bangs++;
    return matches(condition.slice(bangs), value) !== (bangs % 2 === 1);
  }
  if (condition.startsWith('~')) return approximate(value).includes(approximate(condition.slice(1)));
  const comparison = /^(<=|>=|<|>|=)\s*(-?\d+(?:\.\d+)?)$/.exec(condition);
  if (comparison) {
    const v = Number(value);
    const limit = Number(comparison[2]);
    if (value.trim() === '' || !Number.isFinite(v)) return false;
    switch (comparison[1]) {
      case '<':
        return v < limit;
      case '>':
        return v > limit;
      case '<=':
        return v <= limit;
      case '>=':
        return v >= limit;
      default:
        return v === limit;
    }
  }
  return wildcardMatch(condition.toLowerCase(), value.toLowerCase());
}

/**
 * Whether `text` as a whole matches `pattern`, where '*' stands for any run of characters. A regular
 * expression built from the client's pattern backtracked exponentially in the number of stars (issue 16:
 * five stars froze the process for 18 s); this walks both strings once per star, so it takes at most
 * pattern length × text length steps: on a failure after a star only the latest star is retried one
 * character further, because any earlier star could only be made to cover what the latest one can.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

export class FilterError extends Error {}

/** Keeps the records a v2 filter query (`STR;;;RTCM 3.3` …) asks for; a query of another record type keeps none of STR. */
export function filterRecords(records: string[][], query: string): string[][] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    throw new FilterError('sourcetable filter is not valid percent-encoding');
  }
  const conditions = decoded.split(';');
  const type = (conditions[0] ?? '').toUpperCase();
  if (type !== '' && type !== 'STR' && type !== 'CAS' && type !== 'NET') {
    throw new FilterError(`sourcetable filter must start with STR, CAS or NET, not '${conditions[0]}'`);
  }
  return records.filter(
    (r) => (type === '' || r[0] === type) && conditions.every((c, i) => i === 0 || matches(c, r[i] ?? '')),
  );
}

export function renderSourcetable(records: string[][]): Buffer {
  return Buffer.from(`${records.map((r) => `${r.join(';')}\r\n`).join('')}ENDSOURCETABLE\r\n`, 'utf8');
}
