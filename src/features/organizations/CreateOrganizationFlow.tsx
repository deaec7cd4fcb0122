import { ORGANIZATION_NAME_MAX, organizationNameProblem } from '@portal/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { TextField } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { useUser } from '../auth/auth-context';
import { type CreateOrganizationFailure, createOrganization, creationFailure } from './organizations.api';

function CreateOrganizationForm({ initialName, onSubmit }: { initialName: string; onSubmit: (name: string) => void }) {
  const { t } = useTranslation('organizations');
  const [name, setName] = useState(initialName);
  const problem = organizationNameProblem(name);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem) onSubmit(name.trim());
      }}
    >
      <div className="flex items-center gap-2">
        <ModalTitle>{t('create.title')}</ModalTitle>
        <span className="rounded-full bg-status-blue/15 px-2 py-0.5 text-xs font-semibold text-status-blue">
          {t('beta')}
        </span>
      </div>
      <p className="text-sm text-muted">{t('create.betaNotice')}</p>
      <TextField
        label={t('create.nameLabel')}
        value={name}
        maxLength={ORGANIZATION_NAME_MAX}
        onChange={(event) => setName(event.target.value)}
        hint={t('create.nameHint', { count: name.length, max: ORGANIZATION_NAME_MAX })}
        data-autofocus
      />
      <Button type="submit" disabled={problem !== undefined}>
        {t('create.submit')}
      </Button>
    </form>
  );
}

function FailureText({ failure }: { failure: CreateOrganizationFailure }) {
  const { t } = useTranslation('organizations');
  return (
    <>
      <p>{t('failure.text')}</p>
      {failure.kind === 'code' && <p className="mt-1">{t(`errors.${failure.code}`)}</p>}
      {failure.kind === 'reason' && <p className="mt-1">{failure.reason}</p>}
    </>
  );
}

/**
 * Spec §4: form, then loading, then success or failure, all in the one modal host. Closing the modal while the
 * request runs abandons it: its answer is then ignored.
 */
export function useCreateOrganizationFlow() {
  const { t } = useTranslation('organizations');
  const modal = useModal();
  const navigate = useNavigate();
  const user = useUser();
  const attempt = useRef(0);

  const submit = async (name: string) => {
    const mine = ++attempt.current;
    modal.open(
      <div className="flex flex-col items-center gap-4 py-6" role="status">
        <Preloader />
        <p className="text-sm text-muted">{t('loading', { name })}</p>
      </div>,
      {
        label: t('loading', { name }),
        onClose: () => {
          if (attempt.current === mine) attempt.current++;
        },
      },
    );
    try {
      const url = await createOrganization({ name });
      if (attempt.current !== mine) return;
      track({ event: 'organizationCreated', name });
      await user?.refetch();
      if (attempt.current !== mine) return;
      modal.open(({ close }) => (
        <MessageDialog
          icon="check"
          tone="green"
          title={t('success.title')}
          actions={
            <Button
              onClick={() => {
                close();
                navigate(url);
              }}
            >
              {t('success.visit')}
            </Button>
          }
        >
          {t('success.text', { name })}
        </MessageDialog>
      ));
    } catch (error) {
      if (attempt.current !== mine) return;
      const failure = creationFailure(error);
      modal.open(({ close }) => (
        <MessageDialog
          title={t('failure.title')}
          actions={
            <>
              <Button variant="secondary" onClick={close}>
                {t('failure.close')}
              </Button>
              <Button onClick={() => start(name)}>{t('failure.tryAgain')}</Button>
            </>
          }
        >
          <FailureText failure={failure} />
        </MessageDialog>
      ));
    }
  };

  const start = (initialName = '') => {
    modal.open(<CreateOrganizationForm initialName={initialName} onSubmit={(name) => void submit(name)} />);
  };
  return start;
}
