import { useId } from 'react';

export function ToggleSwitch({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative h-6 w-11 shrink-0 rounded-full border transition-colors disabled:opacity-50 ${
          checked ? 'border-accent bg-accent' : 'border-line-strong bg-raised'
        }`}
      >
        <span
          aria-hidden="true"
          className={`absolute top-0.5 left-0.5 size-4.5 rounded-full transition-transform ${
            checked ? 'translate-x-5 bg-on-accent' : 'bg-muted'
          }`}
        />
      </button>
      <label htmlFor={id} className="text-sm text-ink">
        {label}
      </label>
    </div>
  );
}
