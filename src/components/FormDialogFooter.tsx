import { useTranslation } from 'react-i18next';
import { Button } from './Button';

/** The end of a form dialog: what went wrong, if anything, then Cancel and the submit button. */
export function FormDialogFooter({
  error,
  onCancel,
  submitLabel,
  submitDisabled,
}: {
  /** The failure message, or nothing while the last attempt has not failed. */
  error?: string | false;
  onCancel: () => void;
  submitLabel: string;
  submitDisabled: boolean;
}) {
  const { t } = useTranslation('accounts');
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={submitDisabled}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
