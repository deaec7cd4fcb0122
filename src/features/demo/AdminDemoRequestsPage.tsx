import type { DemoRequestRecord } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { type Formatter, useFormat } from '../../lib/format';
import { fetchDemoRequests } from './demo.api';

export const DEMO_REQUESTS_PAGE_SIZE = 25;

/** The page part of a URL (path, query): the origin is the portal's own. */
function pageOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

const dash = (text: string) => text || '—';

function Row({ request, format }: { request: DemoRequestRecord; format: Formatter }) {
  const received = format.dateTime(request.createdAt);
  const cell = 'px-3 py-2.5 align-top';
  return (
    <tr className="border-t border-line">
      <td className={`${cell} whitespace-nowrap text-muted`}>
        <time dateTime={request.createdAt}>{received}</time>
      </td>
      <td className={`${cell} font-medium whitespace-nowrap text-ink`}>
        {request.firstName} {request.lastName}
      </td>
      <td className={cell}>
        <a className="text-accent hover:underline" href={`mailto:${request.email}`}>
          {request.email}
        </a>
      </td>
      <td className={cell}>{dash(request.company)}</td>
      <td className={`${cell} whitespace-nowrap`}>{dash(request.phoneNumber)}</td>
      <td className={`${cell} min-w-64 max-w-96 break-words whitespace-pre-line text-muted`}>
        {dash(request.message)}
      </td>
      <td className={cell}>{dash(request.loggedInEmail)}</td>
      <td className={`${cell} max-w-56 truncate text-muted`} title={request.submittedFrom}>
        {dash(pageOf(request.submittedFrom))}
      </td>
      <td className={`${cell} max-w-40 truncate text-muted`} title={request.gclid}>
        {dash(request.gclid)}
      </td>
    </tr>
  );
}

/** Admin back office: the stored sales-demo requests, newest first, a page at a time. */
export function AdminDemoRequestsPage() {
  const { t } = useTranslation('demo');
  const format = useFormat();
  const [offset, setOffset] = useState(0);
  const limit = DEMO_REQUESTS_PAGE_SIZE;
  const query = useQuery({
    queryKey: ['admin', 'demo-requests', offset, limit],
    queryFn: () => fetchDemoRequests({ limit, offset }),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const columns = [
    'receivedAt',
    'name',
    'email',
    'company',
    'phoneNumber',
    'message',
    'loggedInEmail',
    'submittedFrom',
    'gclid',
  ] as const;

  return (
    <Page
      name="admin-demo-requests"
      title={t('admin.title')}
      subtitle={t('admin.subtitle')}
      actions={data && <span className="text-sm text-muted">{t('admin.total', { count: data.total })}</span>}
    >
      {query.isPending ? (
        <Preloader />
      ) : query.isError || !data ? (
        <GenericErrorBlock />
      ) : data.total === 0 ? (
        <p className="rounded-2xl border border-line bg-panel p-6 text-sm text-muted">{t('admin.empty')}</p>
      ) : (
        <section className="flex flex-col gap-3">
          <div className="overflow-x-auto rounded-2xl border border-line bg-panel">
            <table className="w-full text-left text-sm text-ink">
              <thead className="bg-raised text-xs tracking-wide text-muted uppercase">
                <tr>
                  {columns.map((c) => (
                    <th key={c} scope="col" className="px-3 py-2.5 font-semibold whitespace-nowrap">
                      {t(`admin.columns.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.items.map((request) => (
                  <Row key={request.id} request={request} format={format} />
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label={t('admin.title')} className="flex items-center justify-end gap-3 text-sm text-muted">
            <span>
              {t('admin.range', {
                from: data.offset + 1,
                to: data.offset + data.items.length,
                total: data.total,
              })}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - limit))}
            >
              {t('admin.previous')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={offset + limit >= data.total}
              onClick={() => setOffset(offset + limit)}
            >
              {t('admin.next')}
            </Button>
          </nav>
        </section>
      )}
    </Page>
  );
}
