import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../components/Button';
import { Modal, ModalTitle } from '../../components/modal';
import { useCatalogueMutation } from './catalogue.hooks';
import { type FieldErrors, serverErrors, zodFieldErrors } from './form-errors';

export interface CatalogueForm<R> {
  errors: FieldErrors;
  /** A problem the server did not tie to one field. */
  general?: string;
  saving: boolean;
  /** Checks `body` against the contract's schema before the API sees it, then saves exactly that body. */
  submit(schema: z.ZodType, body: Record<string, unknown>, onSaved: (saved: R) => void): void;
}

/** Validation and saving of the admin's network, station and feed forms. */
export function useCatalogueForm<R>(write: (body: Record<string, unknown>) => Promise<R>): CatalogueForm<R> {
  const { t } = useTranslation('catalogue');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const save = useCatalogueMutation(write);
  return {
    errors,
    general,
    saving: save.isPending,
    submit(schema, body, onSaved) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        setErrors(zodFieldErrors(parsed.error));
        return;
      }
      setErrors({});
      setGeneral(undefined);
      save.mutate(body, {
        onSuccess: onSaved,
        onError: (error) => {
          const e = serverErrors(error, t('errors.saveFailed'));
          setErrors(e.fields);
          setGeneral(e.general);
        },
      });
    },
  };
}

/** The dialog around a catalogue form: title, the server's general error, the fields, Cancel and Save. */
export function CatalogueFormModal({
  name,
  title,
  intro,
  form,
  canSave = true,
  onSubmit,
  onClose,
  children,
}: {
  /** Names the test ids `{name}-form` and `{name}-save`. */
  name: string;
  title: ReactNode;
  intro?: ReactNode;
  form: Pick<CatalogueForm<unknown>, 'general' | 'saving'>;
  canSave?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal open onClose={onClose} large>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid={`${name}-form`}>
        <ModalTitle>{title}</ModalTitle>
        {intro}
        {form.general && (
          <p className="rounded-lg bg-status-red/10 px-3 py-2 text-sm text-status-red">{form.general}</p>
        )}
        {children}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={form.saving || !canSave} data-testid={`${name}-save`}>
            {form.saving ? t('actions.saving') : t('actions.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
