import {
  type AdminUser,
  adminCreateNtripAccountBodySchema,
  NTRIP_LABEL_MAX,
  type NtripAccountWithPassword,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CopyValue } from '../../components/CopyValue';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { useZodForm } from '../../lib/forms/useZodForm';
import { UserPicker } from './UserPicker';
import { useCreateNtripAccountFor } from './users.hooks';

/** The password of a new or reset account, shown this once. */
export function PasswordOnce({
  result,
  onClose,
  title,
}: {
  result: NtripAccountWithPassword;
  onClose: () => void;
  title: string;
}) {
  const { t } = useTranslation('users');
  const { t: ta } = useTranslation('accounts');
  return (
    <div className="flex flex-col gap-4">
      <ModalTitle>{title}</ModalTitle>
      <p className="text-sm text-muted">{t('customer.ntrip.passwordOnce')}</p>
      <CopyValue
        label={ta('details.username')}
        value={result.account.username}
        copyLabel={ta('details.copyUsername')}
        testId="ntrip-username"
      />
      <CopyValue
        label={ta('details.password')}
        value={result.password}
        copyLabel={ta('password.copyPassword')}
        testId="ntrip-password"
      />
      <div className="flex justify-end">
        <Button onClick={onClose} data-autofocus>
          {ta('actions.done')}
        </Button>
      </div>
    </div>
  );
}

/** An NTRIP account made by an admin for a customer: the given one, or one chosen with the picker. */
export function CreateNtripAccountDialog({ userId, onClose }: { userId?: string; onClose: () => void }) {
  const { t } = useTranslation('users');
  const { t: ta } = useTranslation('accounts');
  const create = useCreateNtripAccountFor();
  const [customer, setCustomer] = useState<AdminUser | null>(null);
  const ownerUserId = userId ?? customer?.id;
  const form = useZodForm({
    initialValues: { label: '' },
    schema: adminCreateNtripAccountBodySchema,
    toBody: ({ label }) => ({ ownerUserId, label: label.trim() }),
    submit: create.mutateAsync,
    ns: 'accounts',
    failedText: ta('create.failed'),
  });
  if (create.data) return <PasswordOnce result={create.data} onClose={onClose} title={t('customer.ntrip.created')} />;
  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit}>
      <ModalTitle>{t('customer.ntrip.create')}</ModalTitle>
      {!userId && <UserPicker label={t('customer.ntrip.for')} value={customer} onChange={setCustomer} />}
      <TextField
        label={ta('create.labelLabel')}
        value={form.values.label}
        onChange={(e) => form.set('label')(e.target.value)}
        error={form.errors.label}
        maxLength={NTRIP_LABEL_MAX}
        hint={ta('create.labelHint')}
        required
        data-autofocus={userId ? true : undefined}
      />
      <FormDialogFooter
        error={form.general}
        onCancel={onClose}
        submitLabel={ta('create.submit')}
        submitDisabled={!form.valid || form.pending}
      />
    </form>
  );
}
