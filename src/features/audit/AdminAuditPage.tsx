import { type AuditEntry, pageWindow } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { Preloader } from '../../components/Preloader';
import { type Formatter, useFormat } from '../../lib/format';
import { type AuditFilter, fetchAudit } from './audit.api';

export const AUDIT_PAGE_SIZE = 25;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Where a target lives in the back office, when it has a page of its own. */
function targetLink(entry: AuditEntry): string | null {
  if (!entry.targetId) return null;
  if (entry.targetType === 'user') return `/admin/users/${entry.targetId}`;
  if (entry.targetType === 'network') return `/admin/networks/${entry.targetId}`;
  if (entry.targetType === 'organization') return `/admin/organizations/${entry.targetId}`;
  return null;
}

function Entry({ entry, format }: { entry: AuditEntry; format: Formatter }) {
  const { t } = useTranslation('audit');
  const link = targetLink(entry);
  const target = `${entry.targetType}${entry.targetId ? ` ${entry.targetId}` : ''}`;
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded-xl border border-line bg-panel p-4" data-testid="audit-entry">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span className="font-mono text-sm font-semibold text-ink">{entry.action}</span>
        <time dateTime={entry.at} className="text-xs text-muted">
          {format.moment(entry.at)}
        </time>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">{t('who')}</dt>
        <dd className="break-words text-ink">{entry.actorEmail ?? entry.actorUserId ?? t('system')}</dd>
        <dt className="text-muted">{t('target')}</dt>
        <dd className="break-all text-ink">
          {link ? (
            <Link to={link} className="text-accent hover:underline">
              {target}
            </Link>
          ) : (
            target
          )}
        </dd>
        <dt className="text-muted">{t('address')}</dt>
        <dd className="break-all text-ink">{entry.ip ?? '—'}</dd>
      </dl>
      {(entry.before !== null || entry.after !== null) && (
        <details className="text-sm">
          <summary className="cursor-pointer text-accent">{t('changes')}</summary>
          <div className="mt-2 grid gap-2 md:grid-cols-2">
            <figure className="min-w-0">
              <figcaption className="text-xs font-medium text-muted">{t('before')}</figcaption>
              <pre className="mt-1 max-h-64 overflow-auto rounded-lg bg-surface p-2 text-xs break-all whitespace-pre-wrap text-ink">
                {entry.before === null ? '—' : json(entry.before)}
              </pre>
            </figure>
            <figure className="min-w-0">
              <figcaption className="text-xs font-medium text-muted">{t('after')}</figcaption>
              <pre className="mt-1 max-h-64 overflow-auto rounded-lg bg-surface p-2 text-xs break-all whitespace-pre-wrap text-ink">
                {entry.after === null ? '—' : json(entry.after)}
              </pre>
            </figure>
          </div>
        </details>
      )}
    </li>
  );
}

type Filters = Omit<AuditFilter, 'limit' | 'offset'>;
const FILTERS = ['actor', 'action', 'targetType', 'targetId'] as const;

/** /admin/audit: every admin write and settings change, newest first, with filters; read-only by design. */
export function AdminAuditPage() {
  const { t } = useTranslation('audit');
  const format = useFormat();
  const { t: tc } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const deferred = useDeferredValue(filters);
  const params: AuditFilter = {
    ...Object.fromEntries(Object.entries(deferred).filter(([, v]) => v)),
    ...pageWindow(page, AUDIT_PAGE_SIZE),
  };
  const query = useQuery({
    queryKey: ['admin', 'audit', params],
    queryFn: () => fetchAudit(params),
    placeholderData: keepPreviousData,
  });
  const set = (key: keyof Filters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value.trim() }));
    setPage(1);
  };

  return (
    <Page name="admin-audit" title={tc('pages.adminAudit.title')} subtitle={tc('pages.adminAudit.description')}>
      <form
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
        aria-label={t('filters')}
        onSubmit={(e) => e.preventDefault()}
      >
        {FILTERS.map((key) => (
          <TextField
            key={key}
            label={t(`filter.${key}`)}
            placeholder={t(`placeholder.${key}`)}
            defaultValue={filters[key] ?? ''}
            onChange={(e) => set(key, e.target.value)}
          />
        ))}
        <TextField label={t('filter.from')} type="date" onChange={(e) => set('from', e.target.value)} />
        <TextField label={t('filter.to')} type="date" onChange={(e) => set('to', e.target.value)} />
      </form>
      {query.isError ? (
        <GenericErrorBlock />
      ) : !query.data ? (
        <Preloader />
      ) : query.data.items.length === 0 ? (
        <p className="text-sm text-muted">{t('empty')}</p>
      ) : (
        <>
          <p className="text-sm text-muted">{t('total', { count: query.data.total })}</p>
          <ul className="flex flex-col gap-3">
            {query.data.items.map((entry) => (
              <Entry key={entry.id} entry={entry} format={format} />
            ))}
          </ul>
          <Pager page={page} pageSize={AUDIT_PAGE_SIZE} total={query.data.total} onPage={setPage} label={t('paging')} />
        </>
      )}
    </Page>
  );
}
