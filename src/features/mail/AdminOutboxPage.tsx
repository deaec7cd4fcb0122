import type { OutboxMail } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { Preloader } from '../../components/Preloader';
import { type Formatter, useFormat } from '../../lib/format';
import { fetchOutbox } from './mail.api';

const STATUS_CLASS: Record<OutboxMail['status'], string> = {
  queued: 'text-status-yellow',
  sending: 'text-status-yellow',
  sent: 'text-status-green',
  failed: 'text-status-red',
};

/** A mail is written in its recipient's language, which need not be the reader's: it is marked as such. */
function Mail({ mail, format }: { mail: OutboxMail; format: Formatter }) {
  const { t } = useTranslation('mail');
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded-xl border border-line bg-panel p-4" data-testid="outbox-mail">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span lang={mail.locale} className="font-semibold break-words text-ink">
          {mail.subject}
        </span>
        <time dateTime={mail.createdAt} className="text-xs text-muted">
          {format.moment(mail.createdAt)}
        </time>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">{t('outbox.to')}</dt>
        <dd className="break-all text-ink">{mail.recipient}</dd>
        <dt className="text-muted">{t('outbox.kind')}</dt>
        <dd className="text-ink">{t(`outbox.kinds.${mail.kind}`, { defaultValue: mail.kind })}</dd>
        <dt className="text-muted">{t('outbox.status')}</dt>
        <dd className={STATUS_CLASS[mail.status]}>
          {mail.status === 'sent'
            ? t(mail.transport === 'log' ? 'outbox.statuses.logged' : 'outbox.statuses.sent', {
                at: mail.sentAt ? format.moment(mail.sentAt) : '',
              })
            : t(`outbox.statuses.${mail.status}`, { count: mail.attempts })}
        </dd>
        {mail.lastError && mail.status !== 'sent' && (
          <>
            <dt className="text-muted">{t('outbox.lastError')}</dt>
            <dd className="break-words text-ink">{mail.lastError}</dd>
          </>
        )}
      </dl>
      <details className="text-sm">
        <summary className="cursor-pointer text-accent">{t('outbox.show')}</summary>
        <pre
          lang={mail.locale}
          className="mt-2 max-h-96 overflow-auto rounded-lg bg-surface p-3 text-xs break-words whitespace-pre-wrap text-ink"
        >
          {mail.text}
        </pre>
      </details>
    </li>
  );
}

/** /admin/outbox: every mail the portal queued, newest first; without SMTP_URL this is where mail ends up. */
export function AdminOutboxPage() {
  const { t } = useTranslation('mail');
  const format = useFormat();
  const { t: tc } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['admin', 'outbox', page],
    queryFn: () => fetchOutbox(page),
    placeholderData: keepPreviousData,
  });
  return (
    <Page name="admin-outbox" title={tc('pages.adminOutbox.title')} subtitle={tc('pages.adminOutbox.description')}>
      {query.isError ? (
        <GenericErrorBlock />
      ) : !query.data ? (
        <Preloader />
      ) : (
        <>
          {!query.data.smtp && (
            <p className="rounded-xl border border-status-yellow/40 bg-panel p-4 text-sm text-ink" role="note">
              {t('outbox.noSmtp')}
            </p>
          )}
          {query.data.items.length === 0 ? (
            <p className="text-sm text-muted">{t('outbox.empty')}</p>
          ) : (
            <>
              <p className="text-sm text-muted">{t('outbox.total', { count: query.data.total })}</p>
              <ul className="flex flex-col gap-3">
                {query.data.items.map((mail) => (
                  <Mail key={mail.id} mail={mail} format={format} />
                ))}
              </ul>
              <Pager
                page={page}
                pageSize={query.data.limit}
                total={query.data.total}
                onPage={setPage}
                label={t('outbox.paging')}
              />
            </>
          )}
        </>
      )}
    </Page>
  );
}
