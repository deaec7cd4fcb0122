import type { Network } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { ConfirmDialog } from './ConfirmDialog';
import { deleteNetwork } from './catalogue.api';
import { useNetwork, useNetworks } from './catalogue.hooks';
import { useCatalogueMutation } from './catalogue.mutations';
import { NetworkFormModal } from './NetworkFormModal';
import { SourcetableImport } from './SourcetableImport';
import { StationsSection } from './StationsSection';
import { StatusBadge } from './StatusBadge';

const networkStatusColor = { active: 'green', maintenance: 'yellow', retired: 'red' } as const;

function DeleteNetworkDialog({ network, onClose }: { network: Network; onClose: () => void }) {
  const { t } = useTranslation('catalogue');
  const navigate = useNavigate();
  const remove = useCatalogueMutation(() => deleteNetwork(network.id));
  return (
    <ConfirmDialog
      title={t('networks.deleteTitle', { name: network.name })}
      text={t('networks.deleteText', { count: network.stationCount })}
      busy={remove.isPending}
      error={remove.error}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            onClose();
            navigate('/admin/networks');
          },
        })
      }
      onClose={onClose}
    />
  );
}

/** /admin/networks: every network with its state, size and price; create, edit and delete. */
function NetworkList() {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('catalogue');
  const navigate = useNavigate();
  const networks = useNetworks('admin');
  const [editing, setEditing] = useState<Network | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Network | null>(null);

  return (
    <Page
      name="admin-networks"
      title={t('pages.adminNetworks.title')}
      subtitle={t('pages.adminNetworks.description')}
      actions={
        <Button onClick={() => setEditing('new')} data-testid="network-create">
          {tc('networks.create')}
        </Button>
      }
    >
      {networks.isPending && <Preloader />}
      {networks.isError && <GenericErrorBlock />}
      {networks.data && (
        <CardSection
          rows={networks.data.map((n) => ({
            id: n.id,
            name: n.name,
            status: networkStatusColor[n.status],
            editAction: () => setEditing(n),
            records: {
              slug: (
                <Link to={`/admin/networks/${n.id}`} className="font-mono text-accent hover:underline">
                  {n.slug}
                </Link>
              ),
              status: tc(`status.${n.status}`),
              visibility: n.isPublic ? tc('networks.public') : tc('networks.hidden'),
              stations: tc('marketplace.stationsOnline', { online: n.onlineStationCount, total: n.stationCount }),
              price: tc('marketplace.pricePerDay', { count: n.tokenPricePerDay }),
            },
            actionButton: { text: tc('actions.delete'), color: 'red', action: () => setDeleting(n) },
          }))}
          columns={[
            { key: 'slug', header: tc('fields.slug') },
            { key: 'status', header: tc('fields.status'), colored: true },
            { key: 'visibility', header: tc('fields.visibility') },
            { key: 'stations', header: tc('fields.stations') },
            { key: 'price', header: tc('fields.tokenPricePerDay') },
          ]}
          filter={(row, query) => row.name.toLowerCase().includes(query.toLowerCase())}
          emptyText={tc('networks.empty')}
        />
      )}
      {editing && (
        <NetworkFormModal
          network={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => editing === 'new' && navigate(`/admin/networks/${saved.id}`)}
        />
      )}
      {deleting && <DeleteNetworkDialog network={deleting} onClose={() => setDeleting(null)} />}
    </Page>
  );
}

/** /admin/networks/{networkId}: one network, its stations, and the sourcetable import. */
function NetworkDetail({ networkId }: { networkId: string }) {
  const { t } = useTranslation('catalogue');
  const network = useNetwork(networkId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (network.isPending) return <Preloader />;
  if (network.isError) {
    return (
      <Page name="admin-networks" title={t('networks.notFound')}>
        <Link to="/admin/networks" className="text-accent hover:underline">
          {t('networks.back')}
        </Link>
      </Page>
    );
  }
  const n = network.data;
  const coverage = n.coverage ? `${n.coverage.bbox.map((v) => v.toFixed(2)).join(', ')}` : t('networks.noCoverage');
  return (
    <Page
      name="admin-networks"
      title={n.name}
      subtitle={
        <span className="flex flex-wrap items-center gap-2">
          <Link to="/admin/networks" className="text-accent hover:underline">
            {t('networks.back')}
          </Link>
          <span aria-hidden="true">·</span>
          <span className="font-mono">{n.slug}</span>
          <StatusBadge status={n.status} />
          <span>{n.isPublic ? t('networks.public') : t('networks.hidden')}</span>
        </span>
      }
      actions={
        <>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('actions.edit')}
          </Button>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {t('actions.delete')}
          </Button>
        </>
      }
    >
      {n.description && <p className="max-w-3xl text-sm text-muted">{n.description}</p>}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title={t('fields.stations')} value={n.stationCount} />
        <StatCard
          title={t('networks.online')}
          value={n.onlineStationCount}
          status={{ from: 'green', to: n.onlineStationCount === n.stationCount ? 'green' : 'red' }}
        />
        <StatCard title={t('fields.tokenPricePerDay')} value={n.tokenPricePerDay} hint={n.operator || undefined} />
        <StatCard title={t('networks.coverage')} value={<span className="text-sm">{coverage}</span>} hint={n.region} />
      </div>
      <StationsSection network={n} />
      <SourcetableImport network={n} />
      {editing && <NetworkFormModal network={n} onClose={() => setEditing(false)} />}
      {deleting && <DeleteNetworkDialog network={n} onClose={() => setDeleting(false)} />}
    </Page>
  );
}

export function AdminNetworksPage() {
  const { networkId } = useParams();
  return networkId ? <NetworkDetail networkId={networkId} /> : <NetworkList />;
}
