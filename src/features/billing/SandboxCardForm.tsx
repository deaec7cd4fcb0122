import { type ApiError, cardExpired, sandboxCardSchema } from '@portal/contract';
import type { AxiosError } from 'axios';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { apiError } from '../../lib/api';
import { useZodForm } from '../../lib/forms/useZodForm';

export type SandboxCardInput = { card: string; expiry: string; cvc: string };

const EXPIRY_SHAPE = /^(0[1-9]|1[0-2])\/\d{2}$/;

// The session's secret is the caller's, not an input: the form checks the three fields the server checks, and
// refuses an expired card before sending it, as the server would.
const cardSchema = sandboxCardSchema.omit({ clientSecret: true }).extend({
  expiry: sandboxCardSchema.shape.expiry.refine((expiry) => !cardExpired(expiry, new Date())),
});

/**
 * MM/YY as it is typed: digits only, the slash put in after the month (a lone 2–9 is that month, 02–09), at most four
 * digits. Deleting is left alone, so a backspace over the slash removes it.
 */
export function typedExpiry(input: string, previous: string): string {
  const deleting = input.length < previous.length;
  let digits = input.replace(/\D/g, '');
  if (digits.length === 1 && digits > '1' && !deleting) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  if (digits.length === 2 && !deleting) return `${digits}/`;
  return digits;
}

/**
 * The sandbox provider's card form, in the place Stripe's embedded checkout or Payment Element takes with Stripe
 * (docs/adr/0031). It says plainly that nothing is charged and which test numbers do what. `onSubmit` rejects with
 * the server's answer. Each problem shows under its own field: a refused or mistyped number under the number, an
 * expired or malformed date under the expiry date, a CVC under the CVC.
 */
export function SandboxCardForm({
  submitLabel,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  onSubmit: (card: SandboxCardInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('billing');
  const form = useZodForm({
    initialValues: { card: '', expiry: '', cvc: '' } as SandboxCardInput,
    schema: cardSchema,
    // A refusal is said in the form's own words, under the field it is about.
    submit: (body) =>
      onSubmit(body).catch((error: unknown) => {
        const reason = apiError(error);
        const data = (error as AxiosError<ApiError>).response?.data;
        if (reason && data) {
          if (reason.code === 'card_expired') {
            data.field = 'expiry';
            data.message = t('pay.expired');
          } else if (reason.code === 'validation_failed' && (data.field === 'expiry' || data.field === 'cvc')) {
            data.message = t(data.field === 'expiry' ? 'pay.invalidExpiry' : 'pay.invalidCvc');
          } else {
            data.field = 'card';
            data.message =
              reason.code === 'card_declined'
                ? t('pay.declined')
                : reason.code === 'validation_failed' || reason.code === 'invalid_card'
                  ? t('pay.invalidCard')
                  : t('pay.failed');
          }
        }
        throw error;
      }),
    fieldTexts: { card: t('pay.invalidCard'), cvc: t('pay.invalidCvc') },
    failedText: t('pay.failed'),
  });
  const { values: fields, errors } = form;
  // Under the expiry date: a well-formed date whose month has passed is expired; a malformed one is not a date yet.
  const expiryError =
    errors.expiry === undefined
      ? undefined
      : !EXPIRY_SHAPE.test(fields.expiry)
        ? t('pay.invalidExpiry')
        : cardExpired(fields.expiry, new Date())
          ? t('pay.expired')
          : errors.expiry;
  const set = (key: keyof SandboxCardInput) => (value: string) => form.set(key)(value);
  const busy = form.pending;

  return (
    <form onSubmit={form.handleSubmit} noValidate className="flex flex-col gap-4" data-testid="sandbox-card-form">
      <p className="rounded-lg bg-status-yellow/15 px-3 py-2 text-sm text-ink">{t('pay.sandboxNote')}</p>
      <TextField
        label={t('pay.cardNumber')}
        name="card"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={fields.card}
        onChange={(e) => set('card')(e.target.value)}
        error={errors.card}
        aria-invalid={errors.card ? true : undefined}
        required
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={t('pay.expiry')}
          name="expiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t('pay.expiryPlaceholder')}
          maxLength={5}
          value={fields.expiry}
          onChange={(e) => set('expiry')(typedExpiry(e.target.value, fields.expiry))}
          error={expiryError}
          aria-invalid={expiryError ? true : undefined}
          required
        />
        <TextField
          label={t('pay.cvc')}
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          value={fields.cvc}
          onChange={(e) => set('cvc')(e.target.value)}
          error={errors.cvc}
          aria-invalid={errors.cvc ? true : undefined}
          required
        />
      </div>
      {form.general && (
        <p role="alert" className="text-sm text-status-red">
          {form.general}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            {t('actions.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}
