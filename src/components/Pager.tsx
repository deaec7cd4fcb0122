import { useTranslation } from 'react-i18next';
import { Button } from './Button';

export interface PagerProps {
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Names the navigation landmark, e.g. after the list it pages. */
  label: string;
}

/** Previous, 'Page n of m', Next under a paged list; nothing while the whole list fits on one page. */
export function Pager({ page, pageSize, total, onPage, label }: PagerProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="flex items-center justify-end gap-3 text-sm text-muted" aria-label={label}>
      <Button size="sm" variant="secondary" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('paging.previous')}
      </Button>
      <span>{t('paging.pageOf', { page, pages })}</span>
      <Button size="sm" variant="secondary" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {t('paging.next')}
      </Button>
    </nav>
  );
}
