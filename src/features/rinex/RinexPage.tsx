import {
  HOUR_MS,
  hourFloor,
  RINEX_INTERVALS,
  RINEX_SYSTEMS,
  type RinexSystem,
  rinexWindowProblem,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Checkbox, SelectField, TextField } from '../../components/form';
import { Icon } from '../../components/Icon';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useTokenMoney } from '../billing/token-money';
import { AvailabilityBar } from './AvailabilityBar';
import { BuyRinexDialog, type RinexOrder } from './BuyRinexDialog';
import { JobHistory } from './JobHistory';
import { useAvailability, useRinexJobs } from './rinex.hooks';
import { StationPicker } from './StationPicker';

const DAY_MS = 24 * HOUR_MS;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const MOUNTPOINT = /^[A-Za-z0-9_-]{1,64}$/;

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-4 md:p-6">
      <h2 id={id} className="text-base font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * /rinex: choose a station (search, the map's station popup, or nearest to a position), a UTC day and hours,
 * interval and constellations; see per hour what the archive holds; buy; follow the conversion; download.
 */
export function RinexPage() {
  const { t } = useTranslation('rinex');
  const { money } = useTokenMoney();
  const modal = useModal();
  const [params, setParams] = useSearchParams();
  const requested = params.get('station') ?? '';
  const station = MOUNTPOINT.test(requested) ? requested : undefined;
  const now = Date.now();
  const [day, setDay] = useState(isoDay(now));
  // By default the hour now being recorded: what a surveyor who just stopped wants first.
  const currentHour = new Date(hourFloor(now)).getUTCHours();
  const [fromHour, setFromHour] = useState(currentHour);
  const [toHour, setToHour] = useState(currentHour + 1);
  const [interval, setInterval] = useState<number>(30);
  const [systems, setSystems] = useState<RinexSystem[]>(['G', 'R', 'E', 'C', 'J', 'I']);
  const jobs = useRinexJobs();

  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const validDay = Number.isFinite(dayStart);
  const dayFrom = new Date(validDay ? dayStart : hourFloor(now) - (hourFloor(now) % DAY_MS)).toISOString();
  const dayTo = new Date(Date.parse(dayFrom) + DAY_MS).toISOString();
  const availability = useAvailability(station, dayFrom, dayTo);

  const choose = (mountpoint: string) => setParams({ station: mountpoint });
  const from = new Date(Date.parse(dayFrom) + fromHour * HOUR_MS);
  const to = new Date(Date.parse(dayFrom) + toHour * HOUR_MS);
  const problem = rinexWindowProblem(from, to, new Date(now));
  const hours = availability.data?.hours ?? [];
  const chosen = hours.slice(fromHour, toHour);
  const withData = chosen.filter((h) => h.status !== 'none').length;
  const offer = availability.data;
  const price = offer && offer.charge === 'tokens' && offer.pricePerHour !== null ? offer.pricePerHour * withData : 0;

  const pick = (index: number, extend: boolean) => {
    if (extend && index >= fromHour) setToHour(index + 1);
    else {
      setFromHour(index);
      setToHour(index + 1);
    }
  };
  const toggleSystem = (s: RinexSystem) =>
    setSystems((list) =>
      list.includes(s) ? list.filter((x) => x !== s) : RINEX_SYSTEMS.filter((x) => x === s || list.includes(x)),
    );

  const openBuy = () => {
    if (!station || !offer) return;
    const order: RinexOrder = {
      body: { station, from: from.toISOString(), to: to.toISOString(), interval, systems },
      hoursWithData: withData,
      charge: offer.charge,
      price,
      recording: chosen.some((h) => h.recording),
    };
    modal.open(({ close }) => <BuyRinexDialog order={order} onClose={close} />);
  };

  const hourOptions = (first: number, last: number) =>
    Array.from({ length: last - first + 1 }, (_, i) => {
      const h = first + i;
      return { value: String(h), label: `${String(h).padStart(2, '0')}:00` };
    });
  const canBuy =
    station !== undefined &&
    offer !== undefined &&
    !problem &&
    withData > 0 &&
    systems.length > 0 &&
    offer.charge !== 'not_for_sale';

  return (
    <Page name="rinex" title={t('title')} subtitle={t('subtitle')}>
      <Section id="rinex-station-title" title={t('station.title')}>
        {station ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="text-xs text-muted">{t('station.selected')}</p>
              <p className="font-mono text-lg font-semibold text-ink" data-testid="rinex-station">
                {station}
              </p>
              {offer && (
                <p className="text-sm text-muted">
                  {[offer.station.identifier, offer.station.networkName].filter(Boolean).join(' · ')}
                </p>
              )}
              {availability.isError && <p className="text-sm text-status-red">{t('station.notFound', { station })}</p>}
            </div>
            <Button variant="secondary" size="sm" onClick={() => setParams({})}>
              {t('station.change')}
            </Button>
          </div>
        ) : (
          <StationPicker onChoose={choose} />
        )}
      </Section>

      <Section id="rinex-time-title" title={t('time.title')}>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label={t('time.day')}
            type="date"
            value={day}
            max={isoDay(now)}
            onChange={(e) => e.target.value && setDay(e.target.value)}
          />
          <SelectField
            label={t('time.fromHour')}
            value={String(fromHour)}
            options={hourOptions(0, 23)}
            onChange={(e) => {
              const h = Number(e.target.value);
              setFromHour(h);
              if (toHour <= h) setToHour(h + 1);
            }}
          />
          <SelectField
            label={t('time.toHour')}
            value={String(toHour)}
            options={hourOptions(fromHour + 1, 24)}
            onChange={(e) => setToHour(Number(e.target.value))}
          />
          <SelectField
            label={t('time.interval')}
            value={String(interval)}
            options={RINEX_INTERVALS.map((s) => ({ value: String(s), label: t('time.intervalSeconds', { count: s }) }))}
            onChange={(e) => setInterval(Number(e.target.value))}
          />
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-muted">{t('time.systems')}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {RINEX_SYSTEMS.map((s) => (
              <Checkbox
                key={s}
                label={t(`systems.${s}`)}
                checked={systems.includes(s)}
                onChange={() => toggleSystem(s)}
              />
            ))}
          </div>
          {systems.length === 0 && <p className="text-sm text-status-red">{t('time.systemsNone')}</p>}
        </fieldset>
      </Section>

      <Section id="rinex-availability-title" title={t('availability.title')}>
        {!station ? (
          <p className="text-sm text-muted">{t('availability.pickStation')}</p>
        ) : availability.isPending ? (
          <Preloader />
        ) : availability.isError ? (
          <p className="text-sm text-status-red">{t('availability.error')}</p>
        ) : (
          <>
            <AvailabilityBar hours={hours} selected={[fromHour, toHour]} onPick={pick} />
            {problem ? (
              <p className="text-sm text-status-red" data-testid="rinex-window-problem">
                {t(`window.${problem.code}`)}
              </p>
            ) : withData === 0 ? (
              <p className="text-sm text-status-yellow">{t('availability.noData')}</p>
            ) : (
              <p className="text-sm text-ink" data-testid="rinex-summary">
                {t('availability.summary', { withData, total: chosen.length })}
              </p>
            )}
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
              <div className="text-sm">
                {offer?.charge === 'tokens' && (
                  <>
                    <p className="font-semibold text-ink" data-testid="rinex-total">
                      {money(price)
                        ? t('price.totalMoney', { count: price, money: money(price) })
                        : t('price.total', { count: price })}
                    </p>
                    <p className="text-muted">
                      {money(offer.pricePerHour ?? 0)
                        ? t('price.perHourMoney', {
                            count: offer.pricePerHour ?? 0,
                            money: money(offer.pricePerHour ?? 0),
                          })
                        : t('price.perHour', { count: offer.pricePerHour ?? 0 })}
                    </p>
                  </>
                )}
                {offer?.charge === 'plan' && <p className="font-semibold text-status-green">{t('price.plan')}</p>}
                {offer?.charge === 'free' && <p className="font-semibold text-status-green">{t('price.free')}</p>}
                {offer?.charge === 'not_for_sale' && <p className="text-status-yellow">{t('price.notForSale')}</p>}
              </div>
              <Button onClick={openBuy} disabled={!canBuy}>
                <Icon name="layers" size={16} />
                {offer?.charge === 'tokens' ? t('buy.open') : t('buy.openFree')}
              </Button>
            </div>
          </>
        )}
      </Section>

      <Section id="rinex-history-title" title={t('jobs.title')}>
        {jobs.isPending ? <Preloader /> : <JobHistory jobs={jobs.data ?? []} />}
      </Section>
    </Page>
  );
}
