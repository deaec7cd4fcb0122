import { type FocusEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Country, getCountryCallingCode } from 'react-phone-number-input';
import { Icon } from '../../components/Icon';
import { createTypeahead, typeaheadMatch } from './typeahead';

/** What react-phone-number-input hands its country select component. */
export interface CountrySelectProps {
  value?: Country;
  onChange(value?: Country): void;
  options: Array<{ value?: Country; label: string; divider?: boolean }>;
  disabled?: boolean;
  readOnly?: boolean;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  'aria-label'?: string;
}

/**
 * Select-only combobox of countries for the phone field. Typing letters jumps to the first matching country, as in a
 * native select, and the typed text starts over 1 s after the last key (spec §9).
 */
export function CountrySelect({
  value,
  onChange,
  options,
  disabled,
  readOnly,
  onFocus,
  onBlur,
  'aria-label': ariaLabel,
}: CountrySelectProps) {
  const items = useMemo(() => options.filter((o) => !o.divider), [options]);
  const labels = useMemo(() => items.map((o) => o.label), [items]);
  const selected = items.findIndex((o) => o.value === value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(selected);
  const typeahead = useRef(createTypeahead());
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const inert = disabled || readOnly;
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    if (!open || active < 0) return;
    listRef.current?.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = (index: number) => {
    const option = items[index];
    setOpen(false);
    if (option && option.value !== value) onChange(option.value);
  };
  const openList = () => {
    setActive(Math.max(selected, 0));
    setOpen(true);
  };
  const move = (index: number) => setActive(Math.min(Math.max(index, 0), items.length - 1));

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (inert || event.ctrlKey || event.metaKey || event.altKey) return;
    const { key } = event;
    const printable = key.length === 1 && (key !== ' ' || typeahead.current.active());
    if (printable) {
      event.preventDefault();
      const index = typeaheadMatch(labels, typeahead.current.type(key), open ? active : selected);
      if (index < 0) return;
      if (open) setActive(index);
      else choose(index);
      return;
    }
    const handled = () => event.preventDefault();
    if (!open) {
      if (key === 'ArrowDown' || key === 'ArrowUp' || key === 'Enter' || key === ' ') {
        handled();
        openList();
      }
      return;
    }
    switch (key) {
      case 'ArrowDown':
        handled();
        move(active + 1);
        break;
      case 'ArrowUp':
        handled();
        move(active - 1);
        break;
      case 'PageDown':
        handled();
        move(active + 10);
        break;
      case 'PageUp':
        handled();
        move(active - 10);
        break;
      case 'Home':
        handled();
        move(0);
        break;
      case 'End':
        handled();
        move(items.length - 1);
        break;
      case 'Enter':
      case ' ':
        handled();
        choose(active);
        break;
      case 'Escape':
        handled();
        event.stopPropagation();
        setOpen(false);
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  const current = items[selected];
  return (
    <div className="relative shrink-0">
      <button
        type="button"
        role="combobox"
        aria-label={current ? `${ariaLabel}: ${current.label}` : ariaLabel}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        disabled={inert}
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={(event) => {
          setOpen(false);
          onBlur?.(event);
        }}
        title={current?.label}
        className="flex h-10 items-center gap-1.5 rounded-lg border border-line-strong bg-raised px-2.5 text-sm text-ink transition-colors hover:bg-hover focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/25 disabled:opacity-60"
      >
        {/* The ISO code rather than a flag emoji: Windows and many Linux systems draw flags as two letters anyway. */}
        <span aria-hidden="true" className="text-xs font-semibold text-ink">
          {value ?? <Icon name="globe" size={16} />}
        </span>
        <span className="tabular-nums text-muted">{value ? `+${getCountryCallingCode(value)}` : '+'}</span>
        <Icon name="chevronDown" size={14} className="text-subtle" aria-hidden="true" />
      </button>
      <div
        ref={listRef}
        id={`${id}-list`}
        role="listbox"
        aria-label={ariaLabel}
        hidden={!open}
        className="absolute top-full left-0 z-30 mt-1 max-h-64 w-72 overflow-y-auto rounded-lg border border-line-strong bg-panel py-1 shadow-xl shadow-black/40"
      >
        {open &&
          items.map((option, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keyboard (aria-activedescendant)
            <div
              key={option.value ?? 'ZZ'}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === selected}
              data-active={index === active || undefined}
              // Keeps focus on the combobox so its blur does not close the list before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(index)}
              className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-ink data-[active]:bg-hover aria-selected:font-semibold"
            >
              <span aria-hidden="true" className="w-6 text-xs font-semibold text-subtle">
                {option.value ?? ''}
              </span>
              <span className="flex-1 truncate">{option.label}</span>
              {option.value && <span className="text-xs text-subtle">+{getCountryCallingCode(option.value)}</span>}
            </div>
          ))}
      </div>
    </div>
  );
}
