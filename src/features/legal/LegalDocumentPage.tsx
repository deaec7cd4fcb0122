import { documentKindSchema } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useFormat } from '../../lib/format';
import { useLegalDocument } from './legal.api';
import { SafeMarkdown } from './Markdown';

/** /legal/{terms|privacy|dpa}: the current published version, public. */
export function LegalDocumentPage() {
  const { t, i18n } = useTranslation('admin');
  const format = useFormat();
  const parsed = documentKindSchema.safeParse(useParams().kind);
  const kind = parsed.success ? parsed.data : 'terms';
  const doc = useLegalDocument(kind);
  if (!parsed.success) return <Navigate to="/dashboard" replace />;
  return (
    <Page
      name={`legal-${kind}`}
      // A document in another language than the page's is titled in the page's.
      title={doc.data && doc.data.language === i18n.resolvedLanguage ? doc.data.title : t(`documents.kinds.${kind}`)}
      subtitle={
        doc.data &&
        t('documents.versionOf', {
          version: doc.data.version,
          date: format.date(doc.data.publishedAt),
        })
      }
    >
      {doc.isLoading && <Preloader />}
      {doc.isError && <p className="text-sm text-status-red">{t('loadFailed')}</p>}
      {doc.data === null && <p className="text-sm text-muted">{t('documents.notPublished')}</p>}
      {doc.data && doc.data.language !== i18n.resolvedLanguage && (
        <p className="text-sm text-muted" data-testid="document-language">
          {t('documents.writtenIn', { language: t(`documents.languages.${doc.data.language}`) })}
        </p>
      )}
      {doc.data && (
        // lang: screen readers read it in its own language, and it is not taken for the page's.
        <article lang={doc.data.language} className="rounded-2xl border border-line bg-panel p-5 sm:p-8">
          <SafeMarkdown source={doc.data.body} />
        </article>
      )}
    </Page>
  );
}
