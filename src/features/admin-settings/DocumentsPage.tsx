import {
  DOCUMENT_BODY_MAX,
  DOCUMENT_KINDS,
  DOCUMENT_LANGUAGES,
  type DocumentKind,
  type DocumentLanguage,
  legalDocumentPath,
  publishDocumentBodySchema,
} from '@portal/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { SelectField, TextField } from '../../components/form';
import { fieldClass } from '../../components/form/field-class';
import { Modal } from '../../components/modal';
import { Page } from '../../components/Page';
import { TabSwitch } from '../../components/TabSwitch';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { SafeMarkdown } from '../legal/Markdown';
import { useDocumentVersions, usePublishDocument } from './admin-settings.hooks';

function PublishForm({
  kind,
  initial,
}: {
  kind: DocumentKind;
  initial?: { title: string; body: string; language?: DocumentLanguage };
}) {
  const { t } = useTranslation('admin');
  const publish = usePublishDocument(kind);
  const [confirming, setConfirming] = useState(false);
  const bodyId = useId();
  const form = useZodForm({
    initialValues: {
      title: initial?.title ?? t(`documents.kinds.${kind}`),
      body: initial?.body ?? '',
      language: initial?.language ?? 'en',
    },
    schema: publishDocumentBodySchema,
    submit: (document) => publish.mutateAsync(document).finally(() => setConfirming(false)),
    ns: 'admin',
    failedText: t('saveFailed'),
  });
  const { title, body, language } = form.values;

  // Publishing asks first; the dialog's button sends.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConfirming(true);
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="publish-form">
      <TextField
        label={t('documents.title')}
        name="title"
        value={title}
        onChange={(e) => form.set('title')(e.target.value)}
        error={form.errors.title}
      />
      <SelectField
        label={t('documents.language')}
        name="language"
        value={language}
        options={DOCUMENT_LANGUAGES.map((value) => ({ value, label: t(`documents.languages.${value}`) }))}
        onChange={(e) => form.set('language')(e.target.value as DocumentLanguage)}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={bodyId} className="text-sm font-medium text-muted">
            {t('documents.body')}:
          </label>
          <textarea
            id={bodyId}
            name="body"
            value={body}
            maxLength={DOCUMENT_BODY_MAX}
            onChange={(e) => form.set('body')(e.target.value)}
            rows={14}
            aria-invalid={form.errors.body ? true : undefined}
            className={`${fieldClass} min-h-64 py-2 font-mono text-sm`}
          />
          <p className="text-xs text-subtle">{t('documents.markdownHint')}</p>
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <p className="text-sm font-medium text-muted">{t('documents.preview')}:</p>
          <div lang={language} className="min-h-64 overflow-auto rounded-lg border border-line bg-raised p-4">
            {body.trim() ? (
              <SafeMarkdown source={body} />
            ) : (
              <p className="text-sm text-subtle">{t('documents.previewEmpty')}</p>
            )}
          </div>
        </div>
      </div>
      {(form.general ?? form.errors.body) && (
        <p role="alert" className="text-sm text-status-red">
          {form.general ?? form.errors.body}
        </p>
      )}
      {publish.isSuccess && (
        <p role="status" className="text-sm text-status-green">
          {t('documents.published', { version: publish.data.version })}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" data-testid="publish-document" disabled={!form.valid || form.pending}>
          {t('documents.publish')}
        </Button>
      </div>
      {confirming && (
        <Modal open onClose={() => setConfirming(false)}>
          <MessageDialog
            icon="warning"
            tone="yellow"
            title={t('documents.confirmTitle', { kind: t(`documents.kinds.${kind}`) })}
            actions={
              <>
                <Button variant="secondary" onClick={() => setConfirming(false)}>
                  {t('cancel')}
                </Button>
                <Button data-testid="confirm-publish" disabled={form.pending} onClick={() => form.handleSubmit()}>
                  {t('documents.publish')}
                </Button>
              </>
            }
          >
            {kind === 'terms' ? t('documents.confirmTerms') : t('documents.confirmOther')}
          </MessageDialog>
        </Modal>
      )}
    </form>
  );
}

function DocumentKindSection({ kind }: { kind: DocumentKind }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const versions = useDocumentVersions(kind);
  const items = versions.data?.items ?? [];
  const current = items[0];
  return (
    <div className="flex flex-col gap-6">
      <section className="rounded-2xl border border-line bg-panel p-5 sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-lg font-semibold text-ink">{t('documents.current')}</h2>
          <Link to={legalDocumentPath(kind)} target="_blank" className="text-sm text-accent underline">
            {t('documents.publicPage')}
          </Link>
        </div>
        {versions.isLoading && <p className="mt-3 text-sm text-muted">{t('loading')}</p>}
        {versions.isError && <p className="mt-3 text-sm text-status-red">{t('loadFailed')}</p>}
        {versions.data && !current && <p className="mt-3 text-sm text-muted">{t('documents.none')}</p>}
        {current && (
          <p className="mt-2 text-sm text-muted" data-testid="current-version">
            {t('documents.versionLine', {
              version: current.version,
              date: format.dateTime(current.publishedAt),
              who: current.publishedBy ?? '—',
            })}
            {kind === 'terms' && ` · ${t('documents.acceptances', { count: current.acceptances })}`}
          </p>
        )}
      </section>

      <section className="rounded-2xl border border-line bg-panel p-5 sm:p-6">
        <h2 className="mb-4 text-lg font-semibold text-ink">{t('documents.newVersion')}</h2>
        {versions.data && (
          <PublishForm
            kind={kind}
            initial={current && { title: current.title, body: current.body, language: current.language }}
          />
        )}
      </section>

      {items.length > 0 && (
        <section className="rounded-2xl border border-line bg-panel p-5 sm:p-6">
          <h2 className="mb-3 text-lg font-semibold text-ink">{t('documents.history')}</h2>
          <ul className="divide-y divide-line">
            {items.map((v) => (
              <li key={v.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
                <span className="font-medium text-ink">
                  {t('documents.version', { version: v.version })} ·{' '}
                  {/* The document's own title, in the language it is written in (not the page's). */}
                  <span lang={v.language}>{v.title}</span>
                </span>
                <span className="text-muted">
                  {format.dateTime(v.publishedAt)} · {v.publishedBy ?? '—'}
                  {kind === 'terms' && ` · ${t('documents.acceptances', { count: v.acceptances })}`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** /admin/settings/documents: terms, privacy policy and DPA as published, versioned Markdown. */
export function DocumentsPage() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const [kind, setKind] = useState<DocumentKind>('terms');
  return (
    <Page
      name="admin-settings-documents"
      title={tc('navigation.adminSettings.documents')}
      subtitle={t('documents.description')}
    >
      <TabSwitch
        label={t('documents.kindLabel')}
        options={DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`documents.kinds.${k}`) }))}
        onChange={setKind}
        className="self-start"
      />
      <DocumentKindSection key={kind} kind={kind} />
    </Page>
  );
}
