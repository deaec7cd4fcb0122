import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Icon, type IconName } from './Icon';
import { ModalTitle } from './modal';

/** Body of a message dialog: icon, title, text and actions. Put it inside the modal host or a <Modal>. */
export function MessageDialog({
  icon = 'alert',
  tone = 'red',
  title,
  children,
  actions,
}: {
  icon?: IconName;
  tone?: 'red' | 'green' | 'yellow' | 'blue';
  title: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
}) {
  const tones = {
    red: 'bg-status-red/10 text-status-red',
    green: 'bg-status-green/10 text-status-green',
    yellow: 'bg-status-yellow/10 text-status-yellow',
    blue: 'bg-status-blue/10 text-status-blue',
  };
  return (
    <div className="flex flex-col items-center gap-3 text-center">
      <span className={`flex size-12 items-center justify-center rounded-full ${tones[tone]}`}>
        <Icon name={icon} size={24} />
      </span>
      <ModalTitle className="pr-0">{title}</ModalTitle>
      {children && <div className="text-sm text-muted">{children}</div>}
      <div className="mt-3 flex w-full flex-wrap justify-center gap-2">{actions}</div>
    </div>
  );
}

/** Spec §8: 'An Unexpected Error Occurred' with Close. */
export function UnexpectedErrorDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <MessageDialog
      title={t('dialogs.unexpectedError.title')}
      actions={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t('dialogs.close')}
        </Button>
      }
    >
      {t('dialogs.unexpectedError.message')}
    </MessageDialog>
  );
}

/** Spec §8: 'Could Not Retrieve Billing Details' with Close. */
export function BillingDetailsErrorDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <MessageDialog
      icon="receipt"
      title={t('dialogs.billingDetailsError.title')}
      actions={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t('dialogs.close')}
        </Button>
      }
    >
      {t('dialogs.billingDetailsError.message')}
    </MessageDialog>
  );
}

/** Spec §8: 'No Billing History'. */
export function NoBillingHistoryDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <MessageDialog
      icon="receipt"
      tone="blue"
      title={t('dialogs.noBillingHistory.title')}
      actions={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          {t('dialogs.close')}
        </Button>
      }
    >
      {t('dialogs.noBillingHistory.message')}
    </MessageDialog>
  );
}
