import {
  createNtripAccountBodySchema,
  NTRIP_LABEL_MAX,
  type NtripAccount,
  type NtripAccountWithPassword,
  updateNtripAccountBodySchema,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useCreateAccount, useUpdateAccount } from './accounts.hooks';
import { type ActivateFromCard, ConnectionCard } from './ConnectionCard';

/** Label form, then the new account's connection card with its password, shown this once. */
export function CreateAccountDialog({
  onClose,
  onActivate,
}: {
  onClose: () => void;
  /** A new account has no access yet: its card offers the page's activation. */
  onActivate?: (context: ActivateFromCard) => void;
}) {
  const { t } = useTranslation('accounts');
  const create = useCreateAccount();
  const [result, setResult] = useState<NtripAccountWithPassword>();
  const form = useZodForm({
    initialValues: { label: '' },
    schema: createNtripAccountBodySchema,
    submit: (body) => create.mutateAsync(body.label.trim()),
    onSuccess: setResult,
  });
  if (result) {
    return (
      <div className="flex flex-col gap-4">
        <ModalTitle>{t('password.createdTitle')}</ModalTitle>
        <ConnectionCard account={result.account} password={result.password} onActivate={onActivate} />
        <div className="flex justify-end">
          <Button onClick={onClose} data-autofocus>
            {t('actions.done')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('create.title')}</ModalTitle>
      <TextField
        label={t('create.labelLabel')}
        value={form.values.label}
        onChange={(e) => form.set('label')(e.target.value)}
        error={form.errors.label}
        maxLength={NTRIP_LABEL_MAX}
        hint={t('create.labelHint')}
        required
        data-autofocus
      />
      <FormDialogFooter
        error={form.general && t('create.failed')}
        onCancel={onClose}
        submitLabel={t('create.submit')}
        submitDisabled={!form.valid || form.pending}
      />
    </form>
  );
}

export function RenameDialog({ account, onClose }: { account: NtripAccount; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const update = useUpdateAccount();
  const form = useZodForm({
    initialValues: { label: account.label },
    schema: updateNtripAccountBodySchema,
    submit: (body) => update.mutateAsync({ id: account.id, body: { label: body.label?.trim() } }),
    onSuccess: onClose,
  });
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('rename.title', { name: account.label })}</ModalTitle>
      <TextField
        label={t('create.labelLabel')}
        value={form.values.label}
        onChange={(e) => form.set('label')(e.target.value)}
        error={form.errors.label}
        maxLength={NTRIP_LABEL_MAX}
        required
        data-autofocus
      />
      <FormDialogFooter
        error={form.general && t('rename.failed')}
        onCancel={onClose}
        submitLabel={t('actions.save')}
        submitDisabled={!form.valid || form.pending}
      />
    </form>
  );
}
