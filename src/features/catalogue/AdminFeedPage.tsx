import type { Feed, Network } from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import type { StatusColor } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useLiveSources } from '../diagnostics/diagnostics.hooks';
import { ConfirmDialog } from './ConfirmDialog';
import { deleteFeed, updateFeed } from './catalogue.api';
import { useFeeds, useNetwork, useNetworkStationMarkers, useNetworks } from './catalogue.hooks';
import { useCatalogueMutation } from './catalogue.mutations';
import { FeedFormModal } from './FeedFormModal';

const feedColor = (feed: Feed): StatusColor =>
  !feed.enabled ? 'blue' : feed.status === 'connected' ? 'green' : feed.status === 'error' ? 'red' : 'yellow';

/** /admin/feed: which network's feeds to look at, with its size and health. */
function FeedNetworks() {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('catalogue');
  const networks = useNetworks('admin');
  return (
    <Page name="admin-feed" title={t('pages.adminFeed.title')} subtitle={t('pages.adminFeed.description')}>
      {networks.isPending && <Preloader />}
      {networks.isError && <GenericErrorBlock />}
      {networks.data && (
        <CardSection
          rows={networks.data.map((n) => ({
            id: n.id,
            name: n.name,
            status: n.onlineStationCount === n.stationCount ? 'green' : n.onlineStationCount > 0 ? 'yellow' : 'red',
            records: {
              stations: tc('marketplace.stationsOnline', { online: n.onlineStationCount, total: n.stationCount }),
              feeds: (
                <Link to={`/admin/feed/${n.id}`} className="text-accent hover:underline">
                  {tc('feeds.open')}
                </Link>
              ),
            },
          }))}
          columns={[
            { key: 'stations', header: tc('fields.stations'), colored: true },
            { key: 'feeds', header: tc('feeds.title') },
          ]}
          filter={(row, query) => row.name.toLowerCase().includes(query.toLowerCase())}
          emptyText={tc('networks.empty')}
        />
      )}
    </Page>
  );
}

/** /admin/feed/{networkId}: each station's feed, its state and last error; enable, disable, edit, add, remove. */
function NetworkFeeds({ network }: { network: Network }) {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('catalogue');
  const { t: td } = useTranslation('diagnostics');
  const format = useFormat();
  const feeds = useFeeds(network.id);
  // What each base station sends now, from the caster nodes (issue 17): the feed rows below show it by mountpoint.
  const sources = useLiveSources();
  const liveOf = (mountpoint: string) => sources.data?.items.find((s) => s.mountpoint === mountpoint);
  const stations = useNetworkStationMarkers(network.id);
  const [editing, setEditing] = useState<Feed | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Feed | null>(null);
  const toggle = useCatalogueMutation((feed: Feed) => updateFeed(feed.id, { enabled: !feed.enabled }));
  const remove = useCatalogueMutation((id: string) => deleteFeed(id));
  const withoutFeed = useMemo(() => {
    const fed = new Set((feeds.data?.items ?? []).map((f) => f.stationId));
    return (stations.data?.items ?? []).filter((s) => !fed.has(s.id));
  }, [feeds.data, stations.data]);

  return (
    <Page
      name="admin-feed"
      title={tc('feeds.networkTitle', { name: network.name })}
      subtitle={
        <Link to="/admin/feed" className="text-accent hover:underline">
          {tc('feeds.back', { title: t('pages.adminFeed.title') })}
        </Link>
      }
      actions={
        <Button onClick={() => setEditing('new')} disabled={withoutFeed.length === 0} data-testid="feed-create">
          {tc('feeds.create')}
        </Button>
      }
    >
      {feeds.isPending && <Preloader />}
      {feeds.isError && <GenericErrorBlock />}
      {feeds.data && (
        <CardSection
          defaultView="list"
          nameHeader={tc('fields.mountpoint')}
          rows={feeds.data.items.map((f) => ({
            id: f.id,
            name: f.mountpoint,
            status: feedColor(f),
            editAction: () => setEditing(f),
            records: {
              kind: tc(`feeds.kinds.${f.kind}`),
              state: f.enabled ? tc(`status.${f.status}`) : tc('status.disabled'),
              source: f.upstream
                ? `${f.upstream.host}:${f.upstream.port}/${f.upstream.mountpoint}`
                : tc('feeds.pushSource'),
              receiving: (() => {
                const live = liveOf(f.mountpoint);
                if (!live) return td('feeds.notConnected');
                return live.receiving ? td('feeds.receivingYes') : td('feeds.receivingNo');
              })(),
              rate: liveOf(f.mountpoint)?.bytesPerSecond ?? '–',
              lastFrame: (() => {
                const live = liveOf(f.mountpoint);
                if (!live) return '–';
                return live.lastFrameAgeSeconds === null
                  ? td('feeds.never')
                  : td('feeds.lastFrameAge', { seconds: Math.round(live.lastFrameAgeSeconds) });
              })(),
              address: liveOf(f.mountpoint)?.address ?? '–',
              since: (() => {
                const live = liveOf(f.mountpoint);
                return live ? format.moment(live.connectedAt) : '–';
              })(),
              lastError: f.lastError ?? '–',
              owner: f.ownerEmail ?? '–',
              remove: (
                <button
                  type="button"
                  className="text-status-red hover:underline"
                  onClick={() => {
                    remove.reset();
                    setDeleting(f);
                  }}
                >
                  {tc('actions.delete')}
                </button>
              ),
            },
            actionButton: {
              text: f.enabled ? tc('feeds.disable') : tc('feeds.enable'),
              color: f.enabled ? 'red' : 'green',
              action: () => toggle.mutate(f),
            },
          }))}
          columns={[
            { key: 'kind', header: tc('fields.kind') },
            { key: 'state', header: tc('fields.status'), colored: true },
            { key: 'source', header: tc('feeds.source') },
            { key: 'receiving', header: td('feeds.receiving') },
            { key: 'rate', header: td('feeds.rate') },
            { key: 'lastFrame', header: td('feeds.lastFrame') },
            { key: 'address', header: td('feeds.address') },
            { key: 'since', header: td('feeds.since') },
            { key: 'lastError', header: tc('feeds.lastError') },
            { key: 'owner', header: tc('feeds.owner') },
            { key: 'remove', header: '' },
          ]}
          filter={(row, query) => row.name.toLowerCase().includes(query.toLowerCase())}
          emptyText={tc('feeds.empty')}
        />
      )}
      {editing && (
        <FeedFormModal
          network={network}
          feed={editing === 'new' ? undefined : editing}
          stations={withoutFeed}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={tc('feeds.deleteTitle', { mountpoint: deleting.mountpoint })}
          text={tc('feeds.deleteText')}
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </Page>
  );
}

function NetworkFeedsLoader({ networkId }: { networkId: string }) {
  const { t } = useTranslation('catalogue');
  const network = useNetwork(networkId);
  if (network.isPending) return <Preloader />;
  if (network.isError) {
    return (
      <Page name="admin-feed" title={t('networks.notFound')}>
        <Link to="/admin/feed" className="text-accent hover:underline">
          {t('networks.back')}
        </Link>
      </Page>
    );
  }
  return <NetworkFeeds network={network.data} />;
}

export function AdminFeedPage() {
  const { networkId } = useParams();
  return networkId ? <NetworkFeedsLoader networkId={networkId} /> : <FeedNetworks />;
}
