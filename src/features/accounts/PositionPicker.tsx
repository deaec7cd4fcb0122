import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { Preloader } from '../../components/Preloader';
import { useFormat } from '../../lib/format';
import { parsePosition, type RoverPosition, type StationMountpoint } from './position';

const PositionMap = lazy(async () => ({ default: (await import('./PositionMap')).PositionMap }));

type Locating = 'idle' | 'busy' | 'denied' | 'failed' | 'unsupported';

/**
 * The rover's position, typed, picked on a map, taken from the last position a rover of the account sent the caster,
 * or from the browser's geolocation, which is asked only when the user presses the button. Reports a position only
 * when all of it is valid.
 */
export function PositionPicker({
  stations,
  position,
  reported,
  onChange,
}: {
  stations: StationMountpoint[];
  position: RoverPosition | undefined;
  /** The last GGA the caster saw from the account's rovers, and when. */
  reported?: { latitude: number; longitude: number; at: string };
  onChange: (position: RoverPosition | undefined) => void;
}) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const [latitude, setLatitude] = useState(position ? String(position.latitude) : '');
  const [longitude, setLongitude] = useState(position ? String(position.longitude) : '');
  const [height, setHeight] = useState(position ? String(position.height) : '');
  const [showMap, setShowMap] = useState(false);
  const [locating, setLocating] = useState<Locating>('idle');

  const update = (lat: string, lon: string, hgt: string) => {
    setLatitude(lat);
    setLongitude(lon);
    setHeight(hgt);
    onChange(parsePosition(lat, lon, hgt));
  };
  const fixed = (value: number, digits: number) => String(Number(value.toFixed(digits)));
  const typed = latitude.trim() !== '' || longitude.trim() !== '';
  const invalid = typed && !parsePosition(latitude, longitude, height);

  const locate = () => {
    if (!('geolocation' in navigator)) return setLocating('unsupported');
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating('idle');
        update(fixed(coords.latitude, 7), fixed(coords.longitude, 7), fixed(coords.altitude ?? 0, 1));
      },
      (error) => setLocating(error.code === error.PERMISSION_DENIED ? 'denied' : 'failed'),
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 60_000 },
    );
  };

  return (
    <section className="flex flex-col gap-3" aria-labelledby="rover-position-title">
      <div>
        <h3 id="rover-position-title" className="text-sm font-semibold text-ink">
          {t('card.position.title')}
        </h3>
        <p className="text-xs text-muted">{t('card.position.hint')}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label={t('card.position.latitude')}
          inputMode="decimal"
          placeholder="52.0116"
          value={latitude}
          onChange={(e) => update(e.target.value, longitude, height)}
          size="sm"
        />
        <TextField
          label={t('card.position.longitude')}
          inputMode="decimal"
          placeholder="4.3592"
          value={longitude}
          onChange={(e) => update(latitude, e.target.value, height)}
          size="sm"
        />
        <TextField
          label={t('card.position.height')}
          inputMode="decimal"
          placeholder="0"
          value={height}
          onChange={(e) => update(latitude, longitude, e.target.value)}
          size="sm"
        />
      </div>
      {invalid && (
        <p role="alert" className="text-xs text-status-red">
          {t('card.position.invalid')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="secondary" onClick={locate} disabled={locating === 'busy'}>
          {locating === 'busy' ? t('card.position.locating') : t('card.position.useMyLocation')}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setShowMap((v) => !v)} aria-expanded={showMap}>
          {showMap ? t('card.position.hideMap') : t('card.position.pickOnMap')}
        </Button>
        {reported && (position?.latitude !== reported.latitude || position.longitude !== reported.longitude) && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => update(fixed(reported.latitude, 7), fixed(reported.longitude, 7), height)}
          >
            {t('card.position.useReported', {
              latitude: reported.latitude.toFixed(4),
              longitude: reported.longitude.toFixed(4),
              date: format.dateTime(reported.at),
            })}
          </Button>
        )}
        {typed && (
          <Button size="sm" variant="ghost" onClick={() => update('', '', '')}>
            {t('card.position.clear')}
          </Button>
        )}
        {locating !== 'idle' && locating !== 'busy' && (
          <span role="alert" className="text-xs text-status-yellow">
            {t(`card.position.locate.${locating}`)}
          </span>
        )}
      </div>
      {showMap && (
        <Suspense fallback={<Preloader />}>
          <p className="text-xs text-muted">{t('card.position.mapHint')}</p>
          <PositionMap
            stations={stations}
            position={position}
            onPick={(p) => update(fixed(p.latitude, 7), fixed(p.longitude, 7), height)}
          />
        </Suspense>
      )}
    </section>
  );
}
