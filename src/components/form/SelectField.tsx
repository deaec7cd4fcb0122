import { type SelectHTMLAttributes, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Option } from '../TabSwitch';
import { fieldClass } from './field-class';

/** Labelled native select ("Label:"), for forms; see Dropdown for the custom selector. */
export function SelectField<V extends string>({
  label,
  options,
  className = '',
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: Option<V>[] }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {t('form.labelWithColon', { label })}
      </label>
      <select id={id} className={`${fieldClass} h-10 text-sm`} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
