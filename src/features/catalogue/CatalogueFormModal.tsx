import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../components/Button';
import { Modal, ModalTitle } from '../../components/modal';
import { useZodForm, type ZodForm, type ZodFormOptions } from '../../lib/forms/useZodForm';
import { useCatalogueMutation } from './catalogue.mutations';

/**
 * The admin's network, station and feed forms: useZodForm with the catalogue's texts, saved through a mutation that
 * refreshes the catalogue's queries.
 */
export function useCatalogueForm<V extends object, S extends z.ZodType, R>(
  options: Omit<ZodFormOptions<V, S, R>, 'ns' | 'failedText'>,
): ZodForm<V> {
  const { t } = useTranslation('catalogue');
  const save = useCatalogueMutation(options.submit);
  return useZodForm({ ...options, submit: save.mutateAsync, ns: 'catalogue', failedText: t('errors.saveFailed') });
}

/** The dialog around a catalogue form: title, the server's general error, the fields, Cancel and Save. */
export function CatalogueFormModal({
  name,
  title,
  intro,
  form,
  canSave = true,
  onClose,
  children,
}: {
  /** Names the test ids `{name}-form` and `{name}-save`. */
  name: string;
  title: ReactNode;
  intro?: ReactNode;
  form: Pick<ZodForm<unknown>, 'general' | 'pending' | 'handleSubmit'>;
  canSave?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  return (
    <Modal open onClose={onClose} large>
      <form
        onSubmit={(event: FormEvent) => form.handleSubmit(event)}
        noValidate
        className="flex flex-col gap-4"
        data-testid={`${name}-form`}
      >
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
          <Button type="submit" disabled={form.pending || !canSave} data-testid={`${name}-save`}>
            {form.pending ? t('actions.saving') : t('actions.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
