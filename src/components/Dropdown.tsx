import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon';
import type { Option } from './TabSwitch';

/**
 * Dropdown selector (spec §4): opens on click, closes on an outside click, Escape or choosing an item.
 * Keyboard: Enter/Space/arrows open; in the list arrows move, Home/End jump, Enter/Space choose, Escape closes.
 */
export function Dropdown<V extends string>({
  options,
  value,
  onSelect,
  label,
  placeholder,
  className = '',
}: {
  options: Option<V>[];
  value?: V;
  onSelect: (value: V) => void;
  /** Accessible name of the control. */
  label: string;
  placeholder?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const listId = useId();
  const selected = options.find((o) => o.value === value);

  useEffect(() => {
    if (!open) return;
    list.current?.focus();
    const onPointer = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const openList = () => {
    setActive(
      Math.max(
        0,
        options.findIndex((o) => o.value === value),
      ),
    );
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (option: Option<V>) => {
    onSelect(option.value);
    close();
  };
  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openList();
    }
  };
  const onListKeyDown = (event: KeyboardEvent) => {
    const last = options.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(moves[event.key] as number);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const option = options[active];
      if (option) choose(option);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={root} className={`relative inline-block ${className}`}>
      <button
        ref={button}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`${label}: ${selected?.label ?? placeholder ?? ''}`}
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={onButtonKeyDown}
        className="flex h-10 w-full min-w-40 items-center justify-between gap-2 rounded-lg border border-line-strong bg-raised px-3 text-left text-sm text-ink hover:bg-hover"
      >
        <span className={selected ? '' : 'text-subtle'}>{selected?.label ?? placeholder}</span>
        <Icon name="chevronDown" size={16} className={`text-muted transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div
          ref={list}
          id={listId}
          role="listbox"
          tabIndex={0}
          aria-label={label}
          aria-activedescendant={`${listId}-${active}`}
          onKeyDown={onListKeyDown}
          className="absolute z-30 mt-1 max-h-64 w-full min-w-40 overflow-auto rounded-lg border border-line-strong bg-raised p-1 shadow-xl shadow-black/40 outline-none"
        >
          {options.map((option, index) => (
            <div
              key={option.value}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={option.value === value}
              onMouseEnter={() => setActive(index)}
              onClick={() => choose(option)}
              onKeyDown={(e) => e.key === 'Enter' && choose(option)}
              className={`flex cursor-pointer items-center justify-between rounded-md px-2.5 py-2 text-sm ${
                index === active ? 'bg-hover text-ink' : 'text-muted'
              }`}
            >
              {option.label}
              {option.value === value && <Icon name="check" size={14} className="text-accent" />}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
