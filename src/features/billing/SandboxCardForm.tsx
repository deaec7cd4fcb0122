import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { apiError } from '../../lib/api';

export type SandboxCardInput = { card: string; expiry: string; cvc: string };

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
  const [fields, setFields] = useState<SandboxCardInput>({ card: '', expiry: '', cvc: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const set = (key: keyof SandboxCardInput) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSubmit(fields);
    } catch (e) {
      const reason = apiError(e);
      setError(
        reason?.code === 'card_declined'
          ? t('pay.declined')
          : reason?.code === 'validation_failed' || reason?.code === 'invalid_card'
            ? t('pay.invalidCard')
            : t('pay.failed'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="sandbox-card-form">
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
