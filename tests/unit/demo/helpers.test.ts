import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  currentEntry,
  historyCommand,
  PHONE_HISTORY_LIMIT,
  recordEntry,
  redoEntry,
  startHistory,
  undoEntry,
} from '../../../src/features/demo/phone-history';
import { COUNTRY_TYPEAHEAD_RESET_MS, createTypeahead, typeaheadMatch } from '../../../src/features/demo/typeahead';

describe('phone history (spec §9: at most 20 entries)', () => {
  it('undoes and redoes, and a new entry drops what was undone', () => {
    let h = startHistory('');
    for (const v of ['0', '06', '06 1']) h = recordEntry(h, v);
    h = undoEntry(undoEntry(h));
    expect(currentEntry(h)).toBe('0');
    expect(currentEntry(redoEntry(h))).toBe('06');
    h = recordEntry(h, '07');
    expect(h.entries).toEqual(['', '0', '07']);
    expect(redoEntry(h)).toBe(h);
  });

  it('keeps only the newest 20 entries', () => {
    expect(PHONE_HISTORY_LIMIT).toBe(20);
    let h = startHistory('0');
    for (let i = 1; i <= 30; i++) h = recordEntry(h, String(i));
    expect(h.entries).toHaveLength(20);
    expect(h.entries[0]).toBe('11');
    for (let i = 0; i < 50; i++) h = undoEntry(h);
    expect(currentEntry(h)).toBe('11');
  });

  it('does not record an unchanged value', () => {
    const h = recordEntry(startHistory('06'), '06');
    expect(h.entries).toEqual(['06']);
  });

  it('reads Ctrl/Cmd+Z as undo and Ctrl/Cmd+Shift+Z or Ctrl+Y as redo', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      ...mods,
    });
    expect(historyCommand(key('z', { ctrlKey: true }))).toBe('undo');
    expect(historyCommand(key('z', { metaKey: true }))).toBe('undo');
    expect(historyCommand(key('Z', { metaKey: true, shiftKey: true }))).toBe('redo');
    expect(historyCommand(key('y', { ctrlKey: true }))).toBe('redo');
    expect(historyCommand(key('z'))).toBeUndefined();
    expect(historyCommand(key('c', { ctrlKey: true }))).toBeUndefined();
  });
});

describe('country type-ahead (spec §9: resets after 1 second)', () => {
  afterEach(() => vi.useRealTimers());

  it('collects keys typed within a second and starts over after one second', () => {
    vi.useFakeTimers();
    expect(COUNTRY_TYPEAHEAD_RESET_MS).toBe(1000);
    const t = createTypeahead();
    expect(t.type('g')).toBe('g');
    vi.advanceTimersByTime(999);
    expect(t.type('e')).toBe('ge');
    vi.advanceTimersByTime(1000);
    expect(t.type('b')).toBe('b');
  });

  const labels = ['Belgium', 'Georgia', 'Germany', 'Ghana', 'Netherlands', 'Åland Islands', 'United Kingdom'];

  it('finds the first label from the current one that starts with the text, ignoring case and accents', () => {
    expect(typeaheadMatch(labels, 'ger', 0)).toBe(2);
    expect(typeaheadMatch(labels, 'GE', 2)).toBe(2);
    expect(typeaheadMatch(labels, 'ala', 0)).toBe(5);
    expect(typeaheadMatch(labels, 'united k', 0)).toBe(6);
    expect(typeaheadMatch(labels, 'xyz', 0)).toBe(-1);
  });

  it('steps through the labels starting with a repeated letter', () => {
    expect(typeaheadMatch(labels, 'g', 4)).toBe(1);
    expect(typeaheadMatch(labels, 'gg', 1)).toBe(2);
    expect(typeaheadMatch(labels, 'ggg', 2)).toBe(3);
    expect(typeaheadMatch(labels, 'gggg', 3)).toBe(1);
  });
});
