import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionFailedKey } from '../lib/api-error';
import { Button } from './Button';
import { MessageDialog } from './dialogs';

/**
 * A confirmation whose action may fail; the dialog stays open with a message then. Its words (Cancel, why it failed)
 * are still the accounts namespace's, where the dialog began, so every page that asks shows the same ones.
 */
export function ConfirmDialog({
  title,
  children,
  confirmText,
  danger,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmText: string;
  danger?: boolean;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('accounts');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setFailed(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailed(error ?? new Error('failed'));
      setBusy(false);
    }
  };
  return (
    <MessageDialog
      icon="warning"
      tone={danger ? 'red' : 'yellow'}
      title={title}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            {t('actions.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={confirm} disabled={busy}>
            {confirmText}
          </Button>
        </>
      }
    >
      <p>{children}</p>
      {failed !== null && (
        <p role="alert" className="mt-2 text-status-red">
          {t(actionFailedKey(failed))}
        </p>
      )}
    </MessageDialog>
  );
}
