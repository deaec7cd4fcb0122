/** Spec §9: the country list's type-ahead forgets what was typed 1 second after the last key. */
export const COUNTRY_TYPEAHEAD_RESET_MS = 1000;

/** Collects typed characters into a search text that starts over once `resetMs` have passed since the last key. */
export function createTypeahead(resetMs = COUNTRY_TYPEAHEAD_RESET_MS, now: () => number = Date.now) {
  let text = '';
  let last = Number.NEGATIVE_INFINITY;
  return {
    /** Adds a typed character and answers the search text so far. */
    type(char: string): string {
      const at = now();
      if (at - last >= resetMs) text = '';
      last = at;
      text += char;
      return text;
    },
    /** Whether some text is being typed (a space then belongs to the search, e.g. "United K"). */
    active(): boolean {
      return text !== '' && now() - last < resetMs;
    },
    reset(): void {
      text = '';
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/**
 * The index of the label the search text points at, as a native select does: the first label from `current`
 * on that starts with the text; a repeated single letter ("nnn") steps through the labels starting with it.
 * -1 when none matches.
 */
export function typeaheadMatch(labels: readonly string[], search: string, current: number): number {
  const query = fold(search);
  if (!query || labels.length === 0) return -1;
  const repeated = [...query].every((c) => c === query[0]);
  const needle = repeated ? (query[0] as string) : query;
  const start = repeated ? current + 1 : Math.max(current, 0);
  for (let i = 0; i < labels.length; i++) {
    const index = (start + i + labels.length) % labels.length;
    if (fold(labels[index] as string).startsWith(needle)) return index;
  }
  return -1;
}
