import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/form/SelectField';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';
import { brand } from '../../lib/brand';
import { DEFAULT_RADIUS_KM, MAP_STYLE_URL } from './basemap';
import { CoveragePreview, type MapAction } from './CoveragePreview';
import type { CatalogueScope } from './catalogue.api';
import { useNetworks, useStationMarkers } from './catalogue.hooks';

const RADII = [0, 10, 20, 30, 40, 50];

// MapLibre is a megabyte and seconds of a phone's main thread: it loads when the visitor reaches for the map
// (CoveragePreview), and a visitor who only looks at the coverage never pays for it.
const CoverageMap = lazy(async () => ({ default: (await import('./CoverageMap')).CoverageMap }));

/** Where the map goes, the same size as the map, while the stations load: nothing below it moves when they come. */
function MapPlaceholder() {
  return (
    <div className="flex h-full items-center justify-center">
      <Preloader />
    </div>
  );
}

/** The map with what an operator or surveyor filters it by: network, coverage radius and basemap. */
export function CoverageView({
  scope,
  highlightOffline = false,
}: {
  scope: CatalogueScope;
  highlightOffline?: boolean;
}) {
  const { t } = useTranslation('catalogue');
  const networks = useNetworks(scope);
  const markers = useStationMarkers(scope);
  const [network, setNetwork] = useState('');
  const [radiusKm, setRadiusKm] = useState(DEFAULT_RADIUS_KM);
  const [dark, setDark] = useState(brand.darkMapDefault);
  const [action, setAction] = useState<MapAction>();
  const [mapDrawn, setMapDrawn] = useState(false);
  const mapReady = useCallback(() => setMapDrawn(true), []);

  const shown = useMemo(
    () => (markers.data?.items ?? []).filter((m) => !network || m.networkId === network),
    [markers.data, network],
  );
  const offline = shown.filter((m) => m.status !== 'online').length;
  const radii = RADII.includes(DEFAULT_RADIUS_KM) ? RADII : [...RADII, DEFAULT_RADIUS_KM].sort((a, b) => a - b);

  if (markers.isError || networks.isError) return <GenericErrorBlock />;
  // The controls show at once and keep their place; the legend's counts wait (invisible) for the stations.
  const loading = markers.isPending || networks.isPending;

  return (
    <section className="flex flex-col gap-4" aria-label={t('map.sectionLabel')}>
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label={t('map.network')}
          value={network}
          onChange={(e) => setNetwork(e.target.value)}
          options={[
            { value: '', label: t('map.allNetworks') },
            ...(networks.data ?? []).map((n) => ({ value: n.id, label: n.name })),
          ]}
          className="w-full sm:w-64"
          data-testid="map-network-filter"
        />
        <SelectField
          label={t('map.radius')}
          value={String(radiusKm)}
          onChange={(e) => setRadiusKm(Number(e.target.value))}
          options={radii.map((r) => ({
            value: String(r),
            label: r ? t('map.radiusKm', { km: r }) : t('map.radiusOff'),
          }))}
          className="w-full sm:w-44"
        />
        {!MAP_STYLE_URL && (
          <SelectField
            label={t('map.basemap')}
            value={dark ? 'dark' : 'light'}
            onChange={(e) => setDark(e.target.value === 'dark')}
            options={[
              { value: 'dark', label: t('map.dark') },
              { value: 'light', label: t('map.light') },
            ]}
            className="w-full sm:w-36"
          />
        )}
        <p
          className={`ml-auto flex items-center gap-4 text-sm text-muted ${loading ? 'invisible' : ''}`}
          data-testid="map-legend"
        >
          <span className="flex items-center gap-1.5">
            <span className="size-2.5 rounded-full bg-status-green" aria-hidden="true" />
            {t('map.online', { count: shown.length - offline })}
          </span>
          <span
            className={`flex items-center gap-1.5 ${highlightOffline && offline > 0 ? 'font-semibold text-status-red' : ''}`}
          >
            <span className="size-2.5 rounded-full bg-status-red" aria-hidden="true" />
            {t('map.offline', { count: offline })}
          </span>
        </p>
      </div>
      <div
        className={`coverage-map relative h-[420px] overflow-hidden rounded-2xl border border-line md:h-[560px] ${dark ? 'is-dark' : 'is-light'}`}
        data-testid="coverage-map"
      >
        {loading ? (
          <MapPlaceholder />
        ) : (
          <>
            {action && (
              <Suspense fallback={null}>
                <CoverageMap
                  markers={shown}
                  fitKey={network}
                  scope={scope}
                  radiusKm={radiusKm}
                  dark={dark}
                  highlightOffline={highlightOffline}
                  action={action}
                  onReady={mapReady}
                />
              </Suspense>
            )}
            {!mapDrawn && (
              <CoveragePreview
                markers={shown}
                fitKey={network}
                radiusKm={radiusKm}
                dark={dark}
                highlightOffline={highlightOffline}
                busy={action !== undefined}
                onActivate={setAction}
              />
            )}
          </>
        )}
      </div>
    </section>
  );
}
