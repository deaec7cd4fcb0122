import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { fieldClass } from './field-class';

export type FieldSize = 'sm' | 'md' | 'lg';
const heights: Record<FieldSize, string> = { sm: 'h-8 text-sm', md: 'h-10 text-sm', lg: 'h-12 text-base' };

/**
 * Labelled text field: the label reads "Label:" (spec §5), optional search icon or password visibility toggle,
 * size variant. Everything else goes to the <input>.
 */
export function TextField({
  label,
  icon,
  size = 'md',
  error,
  hint,
  className = '',
  type = 'text',
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & {
  label: string;
  icon?: 'search' | 'password';
  size?: FieldSize;
  error?: ReactNode;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  const inputType = icon === 'password' ? (visible ? 'text' : 'password') : type;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {t('form.labelWithColon', { label })}
      </label>
      <div className="relative">
        {icon === 'search' && (
          <Icon
            name="search"
            size={16}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-subtle"
          />
        )}
        <input
          id={id}
          type={inputType}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${fieldClass} ${heights[size]} ${icon === 'search' ? 'pl-9' : ''} ${icon === 'password' ? 'pr-10' : ''}`}
          {...input}
        />
        {icon === 'password' && (
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? t('form.hidePassword') : t('form.showPassword')}
            aria-pressed={visible}
            className="absolute top-1/2 right-1.5 flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted hover:text-ink"
          >
            <Icon name={visible ? 'eyeOff' : 'eye'} size={16} />
          </button>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-xs text-status-red">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-xs text-subtle">
            {hint}
          </p>
        )
      )}
    </div>
  );
}
