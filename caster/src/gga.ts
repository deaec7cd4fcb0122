export interface Position {
  latitude: number;
  longitude: number;
}

function coordinate(value: string, hemisphere: string, degreeDigits: number, positive: string, negative: string) {
  const degrees = Number(value.slice(0, degreeDigits));
  const minutes = Number(value.slice(degreeDigits));
  if (!Number.isFinite(degrees) || !Number.isFinite(minutes) || minutes >= 60) return null;
  const sign = hemisphere === positive ? 1 : hemisphere === negative ? -1 : 0;
  if (sign === 0) return null;
  return sign * (degrees + minutes / 60);
}

/** What one GGA sentence says: the fix quality digit (NMEA field 6), satellites, age of corrections, position. */
export interface GgaSentence {
  quality: string;
  satellites: number | null;
  ageOfCorrections: number | null;
  /** Null before a fix (quality 0) or with an empty or malformed position: receivers send those before their first fix. */
  position: Position | null;
}

/**
 * Reads a $--GGA sentence of any talker ($GP, $GN, $GL, $GA, $GB, …: receivers name the constellations they used).
 * Null for any other sentence or a bad checksum. The one parser behind both the nearest-station choice and the
 * rover's fix telemetry, so a rover that is given a fix report is also given a station.
 */
export function readGga(sentence: string): GgaSentence | null {
  const line = sentence.trim();
  if (!/^\$[A-Z]{2}GGA,/.test(line)) return null;
  const star = line.indexOf('*');
  const body = star >= 0 ? line.slice(1, star) : line.slice(1);
  if (star >= 0) {
    let sum = 0;
    for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
    if (Number.parseInt(line.slice(star + 1, star + 3), 16) !== sum) return null;
  }
  const f = body.split(',');
  const [, , lat = '', ns = '', lon = '', ew = '', quality = '', sats = ''] = f;
  if (!/^\d$/.test(quality)) return null;
  const age = f[13] ?? '';
  return {
    quality,
    satellites: /^\d{1,2}$/.test(sats) ? Number(sats) : null,
    ageOfCorrections: /^\d+(\.\d+)?$/.test(age) ? Number(age) : null,
    position: quality === '0' ? null : position(lat, ns, lon, ew),
  };
}

function position(lat: string, ns: string, lon: string, ew: string): Position | null {
  if (!/^\d{4,}(\.\d+)?$/.test(lat) || !/^\d{5,}(\.\d+)?$/.test(lon)) return null;
  const latitude = coordinate(lat, ns, 2, 'N', 'S');
  const longitude = coordinate(lon, ew, 3, 'E', 'W');
  if (latitude === null || longitude === null) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

/** The position of a GGA sentence of any talker; null for anything else, a bad checksum or no fix. */
export function parseGga(sentence: string): Position | null {
  return readGga(sentence)?.position ?? null;
}

/** Builds a GGA sentence with a valid checksum (tests and the bench). */
export function formatGga(position: Position, talker = 'GN', quality = 1): string {
  const part = (value: number, degreeDigits: number) => {
    // Rounded to the printed 0.00001 minute before splitting, so 52.99999999° carries to 53° 00.00000' instead
    // of printing 52° 60.00000', which parseGga rightly refuses.
    const units = Math.round(Math.abs(value) * 60 * 1e5);
    const deg = Math.floor(units / 6e6);
    const min = (units % 6e6) / 1e5;
    return `${String(deg).padStart(degreeDigits, '0')}${min.toFixed(5).padStart(8, '0')}`;
  };
  const body = [
    `${talker}GGA`,
    '120000.00',
    part(position.latitude, 2),
    position.latitude >= 0 ? 'N' : 'S',
    part(position.longitude, 3),
    position.longitude >= 0 ? 'E' : 'W',
    String(quality),
    '12',
    '0.8',
    '10.0',
    'M',
    '40.0',
    'M',
    '',
    '',
  ].join(',');
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
