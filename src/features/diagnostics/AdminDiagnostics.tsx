import { type AdminNtripAccount, pageWindow } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { ModalTitle, useModal } from '../../components/modal';
import { Pager } from '../../components/Pager';
import { useFormat } from '../../lib/format';
import { useLoginFailures } from './diagnostics.hooks';
import { RefusedAttempts } from './RefusedAttempts';

const FAILURES_PAGE = 20;

/** Opens the account's refused attempts, as its owner sees them, for support. */
export function AdminRefusalsButton({ account }: { account: AdminNtripAccount }) {
  const { t } = useTranslation('diagnostics');
  const modal = useModal();
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={t('admin.refusedOf', { name: account.username })}
      onClick={() =>
        modal.open(
          () => (
            <div className="flex flex-col gap-4">
              <ModalTitle>{t('admin.refusedOf', { name: account.username })}</ModalTitle>
              <RefusedAttempts accountId={account.id} admin />
            </div>
          ),
          { large: true },
        )
      }
    >
      {t('tabs.refused')}
    </Button>
  );
}

/** Admin-wide: attempts with usernames that name no account (credential stuffing, typos in usernames). */
export function LoginFailuresSection() {
  const { t } = useTranslation('diagnostics');
  const { moment } = useFormat();
  const [page, setPage] = useState(1);
  const failures = useLoginFailures(pageWindow(page, FAILURES_PAGE));
  const columns = ['time', 'address', 'names', 'count', 'reason', 'mountpoint', 'client'] as const;
  return (
    <section aria-label={t('admin.failuresTitle')} className="mt-8 flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold text-ink">{t('admin.failuresTitle')}</h2>
        <p className="text-sm text-muted">{t('admin.failuresIntro')}</p>
      </div>
      {failures.data?.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('admin.failuresEmpty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-line bg-surface">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-line text-xs tracking-wide text-subtle uppercase">
              <tr>
                {columns.map((c) => (
                  <th key={c} className="px-4 py-3 font-medium">
                    {t(`admin.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {failures.data?.items.map((f) => (
                <tr key={f.id} className="border-b border-line last:border-0">
                  <td className="px-4 py-3 text-muted tabular-nums">{moment(f.lastAt)}</td>
                  <td className="px-4 py-3 font-mono text-ink">
                    {f.remoteAddress === '*' ? t('admin.manyAddresses') : f.remoteAddress}
                  </td>
                  <td className="px-4 py-3 font-mono text-muted">{f.usernames.join(', ')}</td>
                  <td className="px-4 py-3 text-muted tabular-nums">{f.count}</td>
                  <td className="px-4 py-3 text-muted">
                    {t(`admin.failureReasons.${f.reason}`, { defaultValue: f.reason })}
                  </td>
                  <td className="px-4 py-3 font-mono text-muted">{f.mountpoint}</td>
                  <td className="px-4 py-3 text-muted">{f.userAgent ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={page}
        pageSize={FAILURES_PAGE}
        total={failures.data?.total ?? 0}
        onPage={setPage}
        label={t('admin.failuresTitle')}
      />
    </section>
  );
}
