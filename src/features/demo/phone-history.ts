/** Spec §9: the phone input keeps at most 20 history entries for Ctrl/Cmd+Z undo and redo. */
export const PHONE_HISTORY_LIMIT = 20;

/** An undo/redo history: the entries in order and the one currently shown. */
export interface History<T> {
  readonly entries: readonly T[];
  readonly index: number;
}

export function startHistory<T>(initial: T): History<T> {
  return { entries: [initial], index: 0 };
}

export function currentEntry<T>(history: History<T>): T {
  return history.entries[history.index] as T;
}

/**
 * Adds a new value after the current one: whatever was undone is dropped, an unchanged value is not recorded,
 * and the oldest entries fall off beyond the limit.
 */
export function recordEntry<T>(history: History<T>, value: T, limit = PHONE_HISTORY_LIMIT): History<T> {
  if (Object.is(currentEntry(history), value)) return history;
  const entries = [...history.entries.slice(0, history.index + 1), value];
  const kept = entries.length > limit ? entries.slice(entries.length - limit) : entries;
  return { entries: kept, index: kept.length - 1 };
}

export function undoEntry<T>(history: History<T>): History<T> {
  return history.index > 0 ? { ...history, index: history.index - 1 } : history;
}

export function redoEntry<T>(history: History<T>): History<T> {
  return history.index < history.entries.length - 1 ? { ...history, index: history.index + 1 } : history;
}

/** Ctrl+Z / Cmd+Z undoes; Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y redo. */
export function historyCommand(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): 'undo' | 'redo' | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  return undefined;
}
