import type { Network, Station } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { TextField } from '../../components/form';
import { useFormat } from '../../lib/format';
import { ConfirmDialog } from './ConfirmDialog';
import { deleteStation } from './catalogue.api';
import { STATION_PAGE_SIZE, useStations } from './catalogue.hooks';
import { useCatalogueMutation } from './catalogue.mutations';
import { catalogueMismatches } from './catalogue-mismatch';
import { StationFormModal } from './StationFormModal';

/** The stations of one network, a page at a time, searchable by mountpoint or name. */
export function StationsSection({ network }: { network: Network }) {
  const { t } = useTranslation('catalogue');
  const format = useFormat();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const stations = useStations(network.id, search.trim(), offset);
  const [editing, setEditing] = useState<Station | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Station | null>(null);
  const remove = useCatalogueMutation((id: string) => deleteStation(id));
  const total = stations.data?.total ?? 0;
  const formatTime = (iso: string | null) => (iso ? format.dateTime(iso) : '–');

  return (
    <section className="flex flex-col gap-3" aria-label={t('stations.title')}>
      <CardSection
        title={t('stations.title')}
        actions={
          <>
            <TextField
              label={t('stations.search')}
              icon="search"
              size="sm"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setOffset(0);
              }}
              className="w-full sm:w-64"
            />
            <Button onClick={() => setEditing('new')} data-testid="station-create" className="self-end">
              {t('stations.create')}
            </Button>
          </>
        }
        defaultView="list"
        nameHeader={t('fields.mountpoint')}
        rows={(stations.data?.items ?? []).map((s) => ({
          id: s.id,
          name: s.mountpoint,
          status: s.status === 'online' ? 'green' : 'red',
          editAction: () => setEditing(s),
          records: {
            identifier: s.identifier || '–',
            status:
              catalogueMismatches(s).length > 0 ? (
                <span data-testid="catalogue-mismatch" className="text-status-yellow">
                  {t(`status.${s.status}`)} · {t('stations.catalogueMismatch')}
                </span>
              ) : (
                t(`status.${s.status}`)
              ),
            position: `${s.latitude.toFixed(4)}, ${s.longitude.toFixed(4)}`,
            receiver: s.receiver || '–',
            format: s.format,
            lastData: formatTime(s.lastDataAt),
          },
          actionButton: {
            text: t('actions.delete'),
            color: 'red',
            action: () => {
              remove.reset();
              setDeleting(s);
            },
          },
        }))}
        columns={[
          { key: 'identifier', header: t('fields.identifier') },
          { key: 'status', header: t('fields.status'), colored: true },
          { key: 'position', header: t('fields.position') },
          { key: 'receiver', header: t('fields.receiver') },
          { key: 'format', header: t('fields.format') },
          { key: 'lastData', header: t('fields.lastData') },
        ]}
        emptyText={stations.isPending ? t('loading') : t('stations.empty')}
      />
      {total > STATION_PAGE_SIZE && (
        <div className="flex items-center justify-end gap-3 text-sm text-muted">
          <span>
            {t('stations.range', {
              from: offset + 1,
              to: Math.min(offset + STATION_PAGE_SIZE, total),
              total,
            })}
          </span>
          <Button
            size="sm"
            variant="secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - STATION_PAGE_SIZE))}
          >
            {t('actions.previous')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={offset + STATION_PAGE_SIZE >= total}
            onClick={() => setOffset(offset + STATION_PAGE_SIZE)}
          >
            {t('actions.next')}
          </Button>
        </div>
      )}
      {editing && (
        <StationFormModal
          network={network}
          station={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('stations.deleteTitle', { mountpoint: deleting.mountpoint })}
          text={t('stations.deleteText')}
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
