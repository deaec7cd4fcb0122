import { nearestQuerySchema } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { Icon } from '../../components/Icon';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useNearest, useStationSearch } from './rinex.hooks';

type Locating = 'idle' | 'busy' | 'denied' | 'failed' | 'unsupported';

/** Decimal degrees as typed: anything else (a blank, a comma, an exponent) is no number, not zero. */
const coordinate = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN);

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
  const [position, setPosition] = useState<{ lat: number; lon: number }>();
  const [locating, setLocating] = useState<Locating>('idle');
  const nearest = useNearest(position);
  const invalidPosition = t('station.invalidPosition');
  const form = useZodForm({
    initialValues: { latitude: '', longitude: '' },
    schema: nearestQuerySchema,
    toBody: (v) => ({ lat: coordinate(v.latitude), lon: coordinate(v.longitude) }),
    submit: async ({ lat, lon }) => setPosition({ lat: Number(lat), lon: Number(lon) }),
    fieldTexts: { lat: invalidPosition, lon: invalidPosition },
  });
  const { latitude, longitude } = form.values;
  const invalid = form.firstError !== undefined;

  const locate = () => {
    if (!('geolocation' in navigator)) return setLocating('unsupported');
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating('idle');
        const lat = Number(coords.latitude.toFixed(6));
        const lon = Number(coords.longitude.toFixed(6));
        form.setValues(() => ({ latitude: String(lat), longitude: String(lon) }));
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
      <form className="flex flex-col gap-2" onSubmit={form.handleSubmit} aria-labelledby="rinex-nearest-title">
        <h3 id="rinex-nearest-title" className="text-sm font-semibold text-ink">
          {t('station.nearestTitle')}
        </h3>
        <div className="grid grid-cols-2 gap-2">
          <TextField
            label={t('station.latitude')}
            inputMode="decimal"
            value={latitude}
            onChange={(e) => form.set('latitude')(e.target.value)}
            aria-invalid={invalid}
          />
          <TextField
            label={t('station.longitude')}
            inputMode="decimal"
            value={longitude}
            onChange={(e) => form.set('longitude')(e.target.value)}
            aria-invalid={invalid}
          />
        </div>
        {invalid && <p className="text-sm text-status-red">{form.firstError}</p>}
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
