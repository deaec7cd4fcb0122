import { type ApiError, sandboxCardSchema } from '@portal/contract';
import type { AxiosError } from 'axios';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { apiError } from '../../lib/api';
import { useZodForm } from '../../lib/forms/useZodForm';

export type SandboxCardInput = { card: string; expiry: string; cvc: string };

// The session's secret is the caller's, not an input: the form checks the three fields the server checks.
const cardSchema = sandboxCardSchema.omit({ clientSecret: true });

/**
 * The sandbox provider's card form, in the place Stripe's embedded checkout or Payment Element takes with Stripe
 * (docs/adr/0031). It says plainly that nothing is charged and which test numbers do what. `onSubmit` rejects with
 * the server's answer; a refused card is shown under the card number.
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
  const invalid = t('pay.invalidCard');
  const form = useZodForm({
    initialValues: { card: '', expiry: '', cvc: '' } as SandboxCardInput,
    schema: cardSchema,
    // A refusal is said in the form's own words, under the card number, whatever field the server named.
    submit: (body) =>
      onSubmit(body).catch((error: unknown) => {
        const reason = apiError(error);
        const data = (error as AxiosError<ApiError>).response?.data;
        if (reason && data) {
          data.field = 'card';
          data.message =
            reason.code === 'card_declined'
              ? t('pay.declined')
              : reason.code === 'validation_failed' || reason.code === 'invalid_card'
                ? invalid
                : t('pay.failed');
        }
        throw error;
      }),
    fieldTexts: { card: invalid, expiry: invalid, cvc: invalid },
    failedText: t('pay.failed'),
  });
  const { values: fields, errors } = form;
  const error = errors.card ?? errors.expiry ?? errors.cvc ?? form.general;
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
        error={error}
        aria-invalid={error ? true : undefined}
        required
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={t('pay.expiry')}
          name="expiry"
          autoComplete="cc-exp"
          placeholder={t('pay.expiryPlaceholder')}
          value={fields.expiry}
          onChange={(e) => set('expiry')(e.target.value)}
          aria-invalid={errors.expiry ? true : undefined}
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
          aria-invalid={errors.cvc ? true : undefined}
          required
        />
      </div>
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
