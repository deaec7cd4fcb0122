import type { IntegrityCode, Station } from '@portal/contract';

/** The integrity findings that say the station's stream contradicts its catalogue entry (ADR 0063). */
const MISMATCH_CODES: readonly IntegrityCode[] = ['position_mismatch'];

/**
 * Whether what the station sends disagrees with its catalogue entry, as the caster's integrity monitor last found:
 * the admins' cue to correct the entry or re-survey the station (issue 32).
 */
export function catalogueMismatch(station: Pick<Station, 'integrity'>): boolean {
  return station.integrity.reasons.some((reason) => MISMATCH_CODES.includes(reason.code));
}
