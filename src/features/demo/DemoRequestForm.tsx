import { DEMO_FIELD_LIMITS, DEMO_MESSAGE_MAX, type DemoRequest } from '@portal/contract';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { fieldClass } from '../../components/form';
import type { ZodForm } from '../../lib/forms/useZodForm';
import { PhoneField } from './PhoneField';

/** What the user typed; the phone is E.164 or undefined (react-phone-number-input's value). */
export interface DemoFormValues {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phone: string | undefined;
  message: string;
}

export const emptyDemoForm: DemoFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  company: '',
  phone: undefined,
  message: '',
};

type FieldName = keyof DemoFormValues;

function Field({
  label,
  error,
  markedRequired,
  children,
}: {
  label: string;
  error?: string;
  markedRequired?: boolean;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {t('form.labelWithColon', { label })}
        {markedRequired && (
          <span aria-hidden="true" className="ml-0.5 text-status-red">
            *
          </span>
        )}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
      })}
      {error && (
        <p id={`${id}-error`} className="text-xs text-status-red">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Step 2 of 2, 'Contact Sales' (spec §4, §5). The flow owns the form (useZodForm with the contract's schema, so the
 * values survive Back); a field shows its problem once it has been left. Submit stays disabled until nothing fails.
 */
export function DemoRequestForm({ form, onBack }: { form: ZodForm<DemoFormValues>; onBack: () => void }) {
  const { t } = useTranslation('demo');
  const { values, valid } = form;
  const submitting = form.pending;
  const set = (field: FieldName) => (value: string | undefined) => form.set(field)(value as never);
  // The phone's problems are the body's phoneNumber's.
  const leave = (field: FieldName) => form.touch(field === 'phone' ? 'phoneNumber' : field);
  const shown = (field: keyof DemoRequest) => form.errors[field];

  const text = (
    field: 'firstName' | 'lastName' | 'email' | 'company',
    extra: InputHTMLAttributes<HTMLInputElement>,
    markedRequired = false,
  ) => (
    <Field label={t(`fields.${field}`)} error={shown(field)} markedRequired={markedRequired}>
      {(a11y) => (
        <input
          {...a11y}
          {...extra}
          aria-required={markedRequired || undefined}
          value={values[field]}
          onChange={(e) => set(field)(e.target.value)}
          onBlur={leave(field)}
          disabled={submitting}
          className={`${fieldClass} h-10 text-sm`}
        />
      )}
    </Field>
  );

  const atLimit = values.message.length >= DEMO_MESSAGE_MAX;
  return (
    <form noValidate onSubmit={form.handleSubmit} className="flex flex-col gap-4" aria-label={t('form.title')}>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('firstName', { autoComplete: 'given-name', maxLength: DEMO_FIELD_LIMITS.name }, true)}
        {text('lastName', { autoComplete: 'family-name', maxLength: DEMO_FIELD_LIMITS.name }, true)}
      </div>
      {text('email', { type: 'email', autoComplete: 'email', maxLength: DEMO_FIELD_LIMITS.email }, true)}
      <PhoneField
        label={t('fields.phoneNumber')}
        value={values.phone}
        onChange={set('phone')}
        onBlur={leave('phone')}
        error={shown('phoneNumber')}
        markedRequired
        disabled={submitting}
      />
      {text('company', { autoComplete: 'organization', maxLength: DEMO_FIELD_LIMITS.company })}
      <Field label={t('fields.message')} error={shown('message')}>
        {(a11y) => (
          <div className="flex flex-col gap-1">
            <textarea
              {...a11y}
              value={values.message}
              onChange={(e) => set('message')(e.target.value)}
              onBlur={leave('message')}
              maxLength={DEMO_MESSAGE_MAX}
              rows={4}
              disabled={submitting}
              placeholder={t('form.messagePlaceholder')}
              className={`${fieldClass} min-h-24 py-2 text-sm`}
            />
            <p
              data-testid="message-counter"
              data-at-limit={atLimit || undefined}
              aria-live="polite"
              className={`self-end text-xs tabular-nums ${atLimit ? 'font-semibold text-status-red' : 'text-subtle'}`}
            >
              {t('form.counter', { count: values.message.length, max: DEMO_MESSAGE_MAX })}
            </p>
          </div>
        )}
      </Field>
      <p className="text-xs text-subtle">{t('form.requiredNote')}</p>
      <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
        <Button variant="secondary" onClick={onBack} disabled={submitting}>
          {t('form.back')}
        </Button>
        <Button type="submit" disabled={!valid || submitting} aria-disabled={!valid || submitting}>
          {submitting ? t('form.submitting') : t('form.submit')}
        </Button>
      </div>
    </form>
  );
}
