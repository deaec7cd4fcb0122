import { type KeyboardEvent, useRef, useState } from 'react';

export interface Option<V extends string = string> {
  value: V;
  label: string;
}

/** Segmented switch; keeps the selected value, starting at `initial` or the first option (spec §4). */
export function TabSwitch<V extends string>({
  options,
  initial,
  onChange,
  label,
  className = '',
}: {
  options: Option<V>[];
  initial?: V;
  onChange?: (value: V) => void;
  /** Accessible name of the group. */
  label: string;
  className?: string;
}) {
  const [selected, setSelected] = useState<V | undefined>(initial ?? options[0]?.value);
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const choose = (value: V) => {
    setSelected(value);
    onChange?.(value);
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = (index + delta + options.length) % options.length;
    const option = options[next];
    if (!option) return;
    choose(option.value);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      className={`inline-flex max-w-full flex-wrap rounded-xl border border-line bg-panel p-1 ${className}`}
    >
      {options.map((option, index) => {
        const active = option.value === selected;
        return (
          <button
            key={option.value}
            ref={(el) => {
              refs.current[index] = el;
            }}
            type="button"
            role="tab"
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            onClick={() => choose(option.value)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={`rounded-lg px-3.5 py-1.5 text-sm font-medium transition-colors ${
              active ? 'bg-raised text-ink shadow-sm ring-1 ring-line-strong' : 'text-muted hover:text-ink'
            }`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
