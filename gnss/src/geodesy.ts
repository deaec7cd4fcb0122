/** WGS84 earth-centred (ECEF) and geodetic coordinates, and the local split of a difference between two positions. */

export type Ecef = [number, number, number];

const WGS84_A = 6378137;
const WGS84_F = 1 / 298.257223563;
const WGS84_E2 = WGS84_F * (2 - WGS84_F);

/** Latitude and longitude in radians and ellipsoidal height in metres of an ECEF position (metres). */
function geodeticRadians([x, y, z]: Ecef): { lat: number; lon: number; h: number } {
  const lon = Math.atan2(y, x);
  const p = Math.hypot(x, y);
  let lat = Math.atan2(z, p * (1 - WGS84_E2));
  let h = 0;
  for (let i = 0; i < 6; i++) {
    const n = WGS84_A / Math.sqrt(1 - WGS84_E2 * Math.sin(lat) ** 2);
    h = p / Math.cos(lat) - n;
    lat = Math.atan2(z, p * (1 - (WGS84_E2 * n) / (n + h)));
  }
  return { lat, lon, h };
}

/** Latitude and longitude in degrees and ellipsoidal height in metres of an ECEF position. */
export function ecefToGeodetic(position: Ecef): { latitude: number; longitude: number; heightM: number } {
  const { lat, lon, h } = geodeticRadians(position);
  return { latitude: (lat * 180) / Math.PI, longitude: (lon * 180) / Math.PI, heightM: h };
}

/** ECEF metres of a latitude and longitude in degrees and an ellipsoidal height in metres. */
export function geodeticToEcef(latitude: number, longitude: number, heightM: number): Ecef {
  const phi = (latitude * Math.PI) / 180;
  const lambda = (longitude * Math.PI) / 180;
  const n = WGS84_A / Math.sqrt(1 - WGS84_E2 * Math.sin(phi) ** 2);
  return [
    (n + heightM) * Math.cos(phi) * Math.cos(lambda),
    (n + heightM) * Math.cos(phi) * Math.sin(lambda),
    (n * (1 - WGS84_E2) + heightM) * Math.sin(phi),
  ];
}

/** Horizontal length and vertical part (metres, up positive) of b − a in the local frame at a. */
export function horizontalVertical(a: Ecef, b: Ecef): { horizontal: number; vertical: number } {
  const { lat, lon } = geodeticRadians(a);
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const dz = b[2] - a[2];
  const east = -Math.sin(lon) * dx + Math.cos(lon) * dy;
  const north = -Math.sin(lat) * Math.cos(lon) * dx - Math.sin(lat) * Math.sin(lon) * dy + Math.cos(lat) * dz;
  const up = Math.cos(lat) * Math.cos(lon) * dx + Math.cos(lat) * Math.sin(lon) * dy + Math.sin(lat) * dz;
  return { horizontal: Math.hypot(east, north), vertical: up };
}
