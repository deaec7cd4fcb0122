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
  const { t } = useTranslation('admin');
  const format = useFormat();
  const parsed = documentKindSchema.safeParse(useParams().kind);
  const kind = parsed.success ? parsed.data : 'terms';
  const doc = useLegalDocument(kind);
  if (!parsed.success) return <Navigate to="/dashboard" replace />;
  return (
    <Page
      name={`legal-${kind}`}
      title={doc.data?.title ?? t(`documents.kinds.${kind}`)}
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
      {doc.data && (
        <article className="rounded-2xl border border-line bg-panel p-5 sm:p-8">
          <SafeMarkdown source={doc.data.body} />
        </article>
      )}
    </Page>
  );
}
