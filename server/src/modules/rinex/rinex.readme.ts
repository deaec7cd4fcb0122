import { type ConversionResult, gpstToUtc } from '@portal/gnss';
import type { WorkerJob } from './rinex.worker-protocol.ts';

/** WGS84 ellipsoid. */
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);

/** Earth-centred coordinates (m) to latitude and longitude (degrees) and ellipsoidal height (m). */
export function ecefToGeodetic([x, y, z]: readonly [number, number, number]): { lat: number; lon: number; h: number } {
  const p = Math.hypot(x, y);
  const lon = Math.atan2(y, x);
  let lat = Math.atan2(z, p * (1 - E2));
  let h = 0;
  for (let i = 0; i < 10; i++) {
    const n = A / Math.sqrt(1 - E2 * Math.sin(lat) ** 2);
    h = p / Math.cos(lat) - n;
    lat = Math.atan2(z, p * (1 - (E2 * n) / (n + h)));
  }
  return { lat: (lat * 180) / Math.PI, lon: (lon * 180) / Math.PI, h };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The station's README in the zip: where the antenna is and in which datum, what equipment it is, who runs it, and
 * what the files hold. Values from the station's own RTCM messages (1005/1006, 1007/1008/1033) come first; the
 * catalogue fills what the station does not send.
 */
export function stationReadme(
  job: WorkerJob,
  result: ConversionResult,
  files: { obs: string; nav: string },
  warnings: string[],
): string {
  const s = job.station;
  const info = result.station;
  const lines: string[] = [
    `RINEX 3.04 data of station ${s.mountpoint}`,
    '',
    'Station',
    `  Mountpoint:       ${s.mountpoint}`,
    `  Name:             ${s.identifier || '-'}`,
    `  Country:          ${s.country}`,
    `  Network:          ${s.networkName}${s.networkOperator ? ` (operated by ${s.networkOperator})` : ''}`,
    `  Reference frame:  ${s.referenceFrame ? `${s.referenceFrame}: the frame of the network's corrections, as its operator states it` : 'not stated by the network'}`,
    '',
    'Position',
  ];
  if (info.arp) {
    const [x, y, z] = info.arp;
    const g = ecefToGeodetic(info.arp);
    lines.push(
      `  Antenna reference point (ECEF, from the station's RTCM 1005/1006):`,
      `    X ${x.toFixed(4)} m   Y ${y.toFixed(4)} m   Z ${z.toFixed(4)} m`,
      `    latitude ${g.lat.toFixed(9)}°, longitude ${g.lon.toFixed(9)}°, ellipsoidal height ${g.h.toFixed(4)} m (GRS80/WGS84 ellipsoid)`,
      `  Datum:            ${info.itrfYear ? `ITRF realisation year ${info.itrfYear} as the station reports it` : 'ITRF (the station does not report its realisation)'}`,
      `  Antenna height:   ${info.antennaHeight.toFixed(4)} m above the marker`,
    );
  } else {
    lines.push(
      '  The station sent no position (RTCM 1005/1006) in these hours; APPROX POSITION XYZ in the header is 0.',
      `  Catalogue position: latitude ${s.latitude}°, longitude ${s.longitude}°${s.heightM === null ? '' : `, height ${s.heightM} m`} (WGS84, approximate)`,
    );
  }
  lines.push(
    '',
    'Equipment',
    `  Antenna:          ${info.antennaDescriptor || s.antenna || '-'}${info.antennaSerial ? ` (serial ${info.antennaSerial})` : ''}`,
    `  Receiver:         ${info.receiverType || s.receiver || '-'}${info.receiverFirmware ? ` firmware ${info.receiverFirmware}` : ''}${info.receiverSerial ? ` (serial ${info.receiverSerial})` : ''}`,
    '',
    'Data',
    `  Window (UTC):     ${iso(job.from)} to ${iso(job.to)}`,
    `  Interval:         ${job.interval} s`,
    `  Constellations:   ${job.systems}`,
    `  Epochs:           ${result.epochs}${result.epochs > 0 ? `, ${iso(gpstToUtc(result.firstEpoch))} to ${iso(gpstToUtc(result.lastEpoch))} (UTC; the files are in GPS time)` : ''}`,
    `  Ephemerides:      ${result.navRecords}`,
    '',
    'Files',
    `  ${files.obs}  observations`,
    `  ${files.nav}  navigation (broadcast ephemerides)`,
  );
  if (warnings.length > 0) lines.push('', 'Notes', ...warnings.map((w) => `  - ${w}`));
  return `${lines.join('\n')}\n`;
}
