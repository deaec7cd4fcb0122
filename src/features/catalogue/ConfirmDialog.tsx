import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { Modal } from '../../components/modal';
import { apiError } from '../../lib/api';

/** Asks before a destructive write and shows why it failed, if it did. */
export function ConfirmDialog({
  title,
  text,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  text: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  return (
    <Modal open onClose={onClose}>
      <MessageDialog
        icon="warning"
        tone="red"
        title={title}
        actions={
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button variant="danger" disabled={busy} onClick={onConfirm} data-testid="confirm-delete">
              {t('actions.delete')}
            </Button>
          </>
        }
      >
        <p>{text}</p>
        {error ? <p className="mt-2 text-status-red">{apiError(error)?.message ?? t('errors.saveFailed')}</p> : null}
      </MessageDialog>
    </Modal>
  );
}
