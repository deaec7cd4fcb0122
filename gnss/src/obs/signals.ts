/**
 * Constellations and signals as RTCM 3 MSM numbers them and RINEX 3.04 names them, with the carrier frequencies
 * that turn MSM ranges (metres) into cycles and Hz.
 */

/** RINEX system letters, in the order RINEX files list them (the order convbin writes its SYS / # / OBS TYPES). */
export const SYSTEMS = ['G', 'R', 'E', 'J', 'S', 'C', 'I'] as const;
export type GnssSystem = (typeof SYSTEMS)[number];
/** A number per system for arrays indexed by system, satellite and signal. */
export const SYSTEM_INDEX: Readonly<Record<GnssSystem, number>> = { G: 0, R: 1, E: 2, J: 3, S: 4, C: 5, I: 6 };

export const SPEED_OF_LIGHT = 299_792_458;

/** RTCM 10403.3 MSM signal IDs 1–32 → RINEX attribute (band digit and code letter); '' is reserved. */
const MSM_SIGNALS: Record<GnssSystem, readonly string[]> = {
  G: sigs({
    2: '1C',
    3: '1P',
    4: '1W',
    8: '2C',
    9: '2P',
    10: '2W',
    15: '2S',
    16: '2L',
    17: '2X',
    22: '5I',
    23: '5Q',
    24: '5X',
    30: '1S',
    31: '1L',
    32: '1X',
  }),
  R: sigs({ 2: '1C', 3: '1P', 8: '2C', 9: '2P' }),
  E: sigs({
    2: '1C',
    3: '1A',
    4: '1B',
    5: '1X',
    6: '1Z',
    8: '6C',
    9: '6A',
    10: '6B',
    11: '6X',
    12: '6Z',
    14: '7I',
    15: '7Q',
    16: '7X',
    18: '8I',
    19: '8Q',
    20: '8X',
    22: '5I',
    23: '5Q',
    24: '5X',
  }),
  J: sigs({
    2: '1C',
    9: '6S',
    10: '6L',
    11: '6X',
    15: '2S',
    16: '2L',
    17: '2X',
    22: '5I',
    23: '5Q',
    24: '5X',
    30: '1S',
    31: '1L',
    32: '1X',
  }),
  S: sigs({ 2: '1C', 22: '5I', 23: '5Q', 24: '5X' }),
  C: sigs({
    2: '2I',
    3: '2Q',
    4: '2X',
    8: '6I',
    9: '6Q',
    10: '6X',
    14: '7I',
    15: '7Q',
    16: '7X',
    22: '5D',
    23: '5P',
    24: '5X',
    25: '7D',
    30: '1D',
    31: '1P',
    32: '1X',
  }),
  I: sigs({ 22: '5A' }),
};

function sigs(table: Record<number, string>): string[] {
  return Array.from({ length: 33 }, (_, id) => table[id] ?? '');
}

/** The RINEX attribute of an MSM signal ID, '' when the ID is reserved for that system. */
export function msmSignal(sys: GnssSystem, signalId: number): string {
  return MSM_SIGNALS[sys][signalId] ?? '';
}

/** MSM message number → constellation (1071–1077 GPS … 1131–1137 NavIC) and MSM kind 1–7. */
export function msmKind(messageType: number): { sys: GnssSystem; kind: number } | null {
  const group = Math.floor((messageType - 1070) / 10);
  const kind = messageType - 1070 - group * 10;
  if (messageType < 1071 || messageType > 1137 || kind < 1 || kind > 7) return null;
  const sys = (['G', 'R', 'E', 'S', 'J', 'C', 'I'] as const)[group];
  return sys ? { sys, kind } : null;
}

/** Highest satellite number of each system; MSM satellite IDs above it are not decoded. */
const MAX_PRN: Record<GnssSystem, number> = { G: 32, R: 27, E: 36, J: 10, S: 39, C: 63, I: 14 };

/** The RINEX satellite number of an MSM satellite ID (QZSS 193 → J01, SBAS 120 → S20), or 0 if out of range. */
export function msmSatellite(sys: GnssSystem, satId: number): number {
  if (satId < 1 || satId > MAX_PRN[sys]) return 0;
  return sys === 'S' ? satId + 19 : satId;
}

/** 'G05', 'R24', 'J01'. */
export function satelliteId(sys: GnssSystem, prn: number): string {
  return `${sys}${String(prn).padStart(2, '0')}`;
}

const GLONASS_G1 = 1.602e9;
const GLONASS_G1_STEP = 0.5625e6;
const GLONASS_G2 = 1.246e9;
const GLONASS_G2_STEP = 0.4375e6;

/** Carrier frequency (Hz) of a signal; 0 when unknown (a GLONASS FDMA signal without its channel number). */
export function carrierFrequency(sys: GnssSystem, code: string, glonassChannel?: number): number {
  const band = code[0];
  switch (sys) {
    case 'G':
    case 'J':
    case 'S':
      return band === '1'
        ? 1.57542e9
        : band === '2'
          ? 1.2276e9
          : band === '5'
            ? 1.17645e9
            : band === '6'
              ? 1.27875e9
              : 0;
    case 'R':
      if (band === '1' || band === '2') {
        if (glonassChannel === undefined || glonassChannel < -7 || glonassChannel > 6) return 0;
        return band === '1'
          ? GLONASS_G1 + GLONASS_G1_STEP * glonassChannel
          : GLONASS_G2 + GLONASS_G2_STEP * glonassChannel;
      }
      return band === '3' ? 1.202025e9 : band === '4' ? 1.600995e9 : band === '6' ? 1.24806e9 : 0;
    case 'E':
      return band === '1'
        ? 1.57542e9
        : band === '5'
          ? 1.17645e9
          : band === '6'
            ? 1.27875e9
            : band === '7'
              ? 1.20714e9
              : band === '8'
                ? 1.191795e9
                : 0;
    case 'C':
      return band === '1'
        ? 1.57542e9
        : band === '2'
          ? 1.561098e9
          : band === '5'
            ? 1.17645e9
            : band === '6'
              ? 1.26852e9
              : band === '7'
                ? 1.20714e9
                : band === '8'
                  ? 1.191795e9
                  : 0;
    case 'I':
      return band === '5' ? 1.17645e9 : band === '9' ? 2.492028e9 : 0;
  }
}

/**
 * Frequency slot of a signal inside its system and the tracking modes of that slot from most to least preferred.
 * RINEX lists a system's observation types slot by slot and, within a slot, by this preference, as convbin does.
 */
const FREQUENCY_SLOTS: Record<GnssSystem, ReadonlyArray<readonly [bands: string, preference: string]>> = {
  G: [
    ['1', 'CPYWMNSL'],
    ['2', 'PYWCMNDLSX'],
    ['5', 'IQX'],
  ],
  R: [
    ['14', 'CPABX'],
    ['26', 'PCABX'],
    ['3', 'IQX'],
  ],
  E: [
    ['1', 'CABXZ'],
    ['7', 'IQX'],
    ['5', 'IQX'],
    ['6', 'ABCXZ'],
    ['8', 'IQX'],
  ],
  J: [
    ['1', 'CLSXZ'],
    ['2', 'LSX'],
    ['5', 'IQXDPZ'],
    ['6', 'LSXEZ'],
  ],
  S: [
    ['1', 'C'],
    ['5', 'IQX'],
  ],
  C: [
    ['12', 'IQXDPAN'],
    ['7', 'IQXDPZ'],
    ['5', 'DPX'],
    ['6', 'IQXA'],
    ['8', 'DPX'],
  ],
  I: [
    ['5', 'ABCX'],
    ['9', 'ABCX'],
  ],
};

/** Frequency slot index of a signal in its system, -1 when the band does not exist there. */
export function frequencySlot(sys: GnssSystem, code: string): number {
  return FREQUENCY_SLOTS[sys].findIndex(([bands]) => bands.includes(code[0] as string));
}

/** Preference of a tracking mode within its slot: higher first, 0 when not listed. */
export function codePreference(sys: GnssSystem, code: string): number {
  const slot = FREQUENCY_SLOTS[sys][frequencySlot(sys, code)];
  if (!slot) return 0;
  const at = slot[1].indexOf(code[1] as string);
  return at < 0 ? 0 : 14 - at;
}

/**
 * Orders a system's signals for its SYS / # / OBS TYPES record: by frequency slot, then by preference. The pairwise
 * exchange below is the one convbin performs, so signals it considers equal keep convbin's order too.
 */
export function sortSignals(sys: GnssSystem, codes: string[]): string[] {
  const out = [...codes];
  for (let i = 0; i < out.length - 1; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i] as string;
      const b = out[j] as string;
      const slotA = frequencySlot(sys, a);
      const slotB = frequencySlot(sys, b);
      if (slotA < slotB || (slotA === slotB && codePreference(sys, a) >= codePreference(sys, b))) continue;
      out[i] = b;
      out[j] = a;
    }
  }
  return out;
}
