import type { IntegrityCode, Station } from '@portal/contract';

/** The integrity findings that say the station's stream contradicts its catalogue entry (ADR 0063). */
const MISMATCH_CODES = ['position_mismatch', 'descriptor_mismatch'] as const satisfies readonly IntegrityCode[];
export type CatalogueMismatch = (typeof MISMATCH_CODES)[number];

/**
 * What the station sends that disagrees with its catalogue entry (its 1005/1006 position, its 1033 receiver or
 * antenna), as the caster's integrity monitor last found: the admins' cue to correct the entry or re-survey the
 * station (issue 32).
 */
export function catalogueMismatches(station: Pick<Station, 'integrity'>): CatalogueMismatch[] {
  return MISMATCH_CODES.filter((code) => station.integrity.reasons.some((reason) => reason.code === code));
}
