import { type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Icon } from './Icon';
import type { StatusColor } from './StatCard';

export interface CardColumn {
  /** Key into each row's records. */
  key: string;
  header: string;
  /** Colours the cell with the row's status colour. */
  colored?: boolean;
}

export interface CardRow {
  id?: string;
  name: string;
  editAction?: () => void;
  status?: StatusColor;
  records: Record<string, ReactNode>;
  actionButton?: { text: string; action: () => void; color: 'green' | 'red' };
}

export type CardView = 'grid' | 'list';

const statusText: Record<StatusColor, string> = {
  green: 'text-status-green',
  red: 'text-status-red',
  yellow: 'text-status-yellow',
  blue: 'text-status-blue',
};
const statusDot: Record<StatusColor, string> = {
  green: 'bg-status-green',
  red: 'bg-status-red',
  yellow: 'bg-status-yellow',
  blue: 'bg-status-blue',
};

/**
 * Card/table section (spec §2, §4): rows as a card grid (default; 1/2/3/4 columns at mobile/md/lg/xl) or a table,
 * switched by two icon buttons. A search box (placeholder 'Search') shows only when `filter` is given.
 */
export function CardSection({
  title,
  rows,
  columns = [],
  filter,
  nameHeader,
  actionHeader,
  defaultView = 'grid',
  actions,
  emptyText,
}: {
  title?: string;
  rows: CardRow[];
  columns?: CardColumn[];
  filter?: (row: CardRow, query: string) => boolean;
  nameHeader?: string;
  actionHeader?: string;
  defaultView?: CardView;
  /** Extra controls in the toolbar (e.g. a "Create" button). */
  actions?: ReactNode;
  emptyText?: string;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<CardView>(defaultView);
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = useMemo(
    () => (filter && query.trim() ? rows.filter((row) => filter(row, query.trim())) : rows),
    [rows, filter, query],
  );
  const nameLabel = nameHeader ?? t('cardSection.name');
  const actionLabel = actionHeader ?? t('cardSection.action');
  const hasActions = rows.some((r) => r.actionButton || r.editAction);

  const viewButton = (mode: CardView, label: string) => (
    <button
      type="button"
      aria-label={label}
      aria-pressed={view === mode}
      onClick={() => setView(mode)}
      className={`flex size-8 items-center justify-center rounded-md ${view === mode ? 'bg-raised text-ink ring-1 ring-line-strong' : 'text-muted hover:text-ink'}`}
    >
      <Icon name={mode === 'grid' ? 'grid' : 'list'} size={16} />
    </button>
  );

  const actionCell = (row: CardRow) => (
    <div className="flex items-center gap-2">
      {row.editAction && (
        <button
          type="button"
          onClick={row.editAction}
          aria-label={t('cardSection.edit', { name: row.name })}
          className="flex size-8 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-ink"
        >
          <Icon name="edit" size={16} />
        </button>
      )}
      {row.actionButton && (
        <Button
          size="sm"
          variant={row.actionButton.color === 'green' ? 'success' : 'danger'}
          onClick={row.actionButton.action}
        >
          {row.actionButton.text}
        </Button>
      )}
    </div>
  );

  return (
    <section className="flex flex-col gap-4" aria-label={title}>
      <div className="flex flex-wrap items-center gap-3">
        {title && <h2 className="mr-auto text-base font-semibold text-ink">{title}</h2>}
        {filter && (
          <div className="relative w-full sm:w-64">
            <label htmlFor={searchId} className="sr-only">
              {t('cardSection.search')}
            </label>
            <Icon
              name="search"
              size={16}
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-subtle"
            />
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('cardSection.search')}
              className="h-9 w-full rounded-lg border border-line-strong bg-raised pr-3 pl-9 text-sm text-ink placeholder:text-subtle"
            />
          </div>
        )}
        {actions}
        <fieldset
          className="flex gap-1 rounded-lg border border-line bg-panel p-0.5"
          aria-label={t('cardSection.view')}
        >
          {viewButton('grid', t('cardSection.gridView'))}
          {viewButton('list', t('cardSection.listView'))}
        </fieldset>
      </div>

      {shown.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line px-6 py-10 text-center text-sm text-muted">
          {emptyText ?? t('cardSection.empty')}
        </p>
      ) : view === 'grid' ? (
        <ul data-view="grid" className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {shown.map((row) => (
            <li key={row.id ?? row.name} className="flex flex-col gap-3 rounded-2xl border border-line bg-panel p-4">
              <div className="flex items-center gap-2">
                {row.status && <span className={`size-2 rounded-full ${statusDot[row.status]}`} aria-hidden="true" />}
                <h3 className="truncate text-sm font-semibold text-ink">{row.name}</h3>
              </div>
              {columns.length > 0 && (
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  {columns.map((column) => (
                    <div key={column.key} className="contents">
                      <dt className="text-subtle">{column.header}</dt>
                      <dd
                        className={`truncate text-right ${column.colored && row.status ? statusText[row.status] : 'text-ink'}`}
                      >
                        {row.records[column.key]}
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
              {(row.actionButton || row.editAction) && <div className="mt-auto pt-1">{actionCell(row)}</div>}
            </li>
          ))}
        </ul>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-line bg-panel">
          <table data-view="list" className="w-full text-left text-sm">
            <thead className="border-b border-line text-xs tracking-wide text-subtle uppercase">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  {nameLabel}
                </th>
                {columns.map((column) => (
                  <th key={column.key} scope="col" className="px-4 py-3 font-medium">
                    {column.header}
                  </th>
                ))}
                {(hasActions || columns.length === 0) && (
                  <th scope="col" className="px-4 py-3 font-medium">
                    {actionLabel}
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.id ?? row.name} className="border-b border-line last:border-0 hover:bg-raised/60">
                  <td className="px-4 py-3 font-medium text-ink">
                    <span className="flex items-center gap-2">
                      {row.status && (
                        <span className={`size-2 rounded-full ${statusDot[row.status]}`} aria-hidden="true" />
                      )}
                      {row.name}
                    </span>
                  </td>
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      className={`px-4 py-3 ${column.colored && row.status ? statusText[row.status] : 'text-muted'}`}
                    >
                      {row.records[column.key]}
                    </td>
                  ))}
                  {(hasActions || columns.length === 0) && <td className="px-4 py-3">{actionCell(row)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
