import { createOrganizationBodySchema, ORGANIZATION_NAME_MAX, organizationNameProblem } from '@portal/contract';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { TextField } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import { track } from '../../lib/analytics';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useUser } from '../auth/auth-context';
import { type CreateOrganizationFailure, createOrganization, creationFailure } from './organizations.api';

/** The server's body, and the name problems it answers with a code (spec §5); the code is the text's key. */
const nameSchema = createOrganizationBodySchema.superRefine(({ name }, ctx) => {
  const problem = organizationNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: problem });
});

function CreateOrganizationForm({ initialName, onSubmit }: { initialName: string; onSubmit: (name: string) => void }) {
  const { t } = useTranslation('organizations');
  const form = useZodForm({
    initialValues: { name: initialName },
    schema: nameSchema,
    submit: async (body) => onSubmit(body.name.trim()),
    ns: 'organizations',
    keys: 'errors',
  });
  const { name } = form.values;
  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit}>
      <ModalTitle>{t('create.title')}</ModalTitle>
      <TextField
        label={t('create.nameLabel')}
        value={name}
        maxLength={ORGANIZATION_NAME_MAX}
        onChange={(event) => form.set('name')(event.target.value)}
        hint={t('create.nameHint', { count: name.length, max: ORGANIZATION_NAME_MAX })}
        data-autofocus
      />
      <Button type="submit" disabled={!form.valid}>
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
