import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { Icon } from '../../components/Icon';
import { useNearest, useStationSearch } from './rinex.hooks';

type Locating = 'idle' | 'busy' | 'denied' | 'failed' | 'unsupported';

function parseCoordinate(text: string, limit: number): number | undefined {
  if (!/^\s*-?\d+(\.\d+)?\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Math.abs(value) <= limit ? value : undefined;
}

function Choice({
  mountpoint,
  detail,
  onChoose,
}: {
  mountpoint: string;
  detail: string;
  onChoose: (mountpoint: string) => void;
}) {
  const { t } = useTranslation('rinex');
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <div className="min-w-0">
        <p className="font-mono text-sm font-semibold text-ink">{mountpoint}</p>
        <p className="truncate text-xs text-muted">{detail}</p>
      </div>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => onChoose(mountpoint)}
        aria-label={`${t('station.choose')} ${mountpoint}`}
      >
        {t('station.choose')}
      </Button>
    </li>
  );
}

/**
 * Choosing a station: by its name or mountpoint, or the nearest to a position typed or taken from the browser's
 * geolocation (asked only when the button is pressed).
 */
export function StationPicker({ onChoose }: { onChoose: (mountpoint: string) => void }) {
  const { t } = useTranslation('rinex');
  const [text, setText] = useState('');
  const search = useStationSearch(text);
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [position, setPosition] = useState<{ lat: number; lon: number }>();
  const [invalid, setInvalid] = useState(false);
  const [locating, setLocating] = useState<Locating>('idle');
  const nearest = useNearest(position);

  const findNearest = (event?: FormEvent) => {
    event?.preventDefault();
    const lat = parseCoordinate(latitude, 90);
    const lon = parseCoordinate(longitude, 180);
    setInvalid(lat === undefined || lon === undefined);
    if (lat !== undefined && lon !== undefined) setPosition({ lat, lon });
  };

  const locate = () => {
    if (!('geolocation' in navigator)) return setLocating('unsupported');
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating('idle');
        const lat = Number(coords.latitude.toFixed(6));
        const lon = Number(coords.longitude.toFixed(6));
        setLatitude(String(lat));
        setLongitude(String(lon));
        setInvalid(false);
        setPosition({ lat, lon });
      },
      (error) => setLocating(error.code === error.PERMISSION_DENIED ? 'denied' : 'failed'),
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 60_000 },
    );
  };

  const matches = text.trim().length >= 2 ? (search.data ?? []) : [];
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div className="flex flex-col gap-2">
        <TextField
          label={t('station.search')}
          icon="search"
          value={text}
          placeholder={t('station.searchPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          maxLength={64}
        />
        {search.isSuccess && text.trim().length >= 2 && matches.length === 0 && (
          <p className="text-sm text-muted">{t('station.noMatch', { text: text.trim() })}</p>
        )}
        {matches.length > 0 && (
          <ul aria-label={t('station.search')} className="divide-y divide-line">
            {matches.map((s) => (
              <Choice
                key={s.id}
                mountpoint={s.mountpoint}
                detail={[s.identifier, s.country].filter(Boolean).join(' · ')}
                onChoose={onChoose}
              />
            ))}
          </ul>
        )}
      </div>
      <form className="flex flex-col gap-2" onSubmit={findNearest} aria-labelledby="rinex-nearest-title">
        <h3 id="rinex-nearest-title" className="text-sm font-semibold text-ink">
          {t('station.nearestTitle')}
        </h3>
        <div className="grid grid-cols-2 gap-2">
          <TextField
            label={t('station.latitude')}
            inputMode="decimal"
            value={latitude}
            onChange={(e) => setLatitude(e.target.value)}
            aria-invalid={invalid}
          />
          <TextField
            label={t('station.longitude')}
            inputMode="decimal"
            value={longitude}
            onChange={(e) => setLongitude(e.target.value)}
            aria-invalid={invalid}
          />
        </div>
        {invalid && <p className="text-sm text-status-red">{t('station.invalidPosition')}</p>}
        {locating !== 'idle' && locating !== 'busy' && (
          <p className="text-sm text-status-yellow">
            {t(
              locating === 'denied'
                ? 'station.locationDenied'
                : locating === 'unsupported'
                  ? 'station.locationUnsupported'
                  : 'station.locationFailed',
            )}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" size="sm">
            {t('station.findNearest')}
          </Button>
          <Button variant="ghost" size="sm" onClick={locate} disabled={locating === 'busy'}>
            <Icon name="map" size={14} />
            {locating === 'busy' ? t('station.locating') : t('station.useLocation')}
          </Button>
        </div>
        {nearest.isSuccess && nearest.data.length === 0 && (
          <p className="text-sm text-muted">{t('station.noneNearby')}</p>
        )}
        {nearest.isSuccess && nearest.data.length > 0 && (
          <ul aria-label={t('station.nearestTitle')} className="divide-y divide-line">
            {nearest.data.map((s) => (
              <Choice
                key={s.id}
                mountpoint={s.mountpoint}
                detail={`${t('station.distance', { km: s.distanceKm.toFixed(1) })} · ${s.networkName}`}
                onChoose={onChoose}
              />
            ))}
          </ul>
        )}
      </form>
    </div>
  );
}
