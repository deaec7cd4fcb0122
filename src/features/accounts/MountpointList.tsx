import type { AccountMountpoint } from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyControl } from '../../components/CopyControl';
import { TextField } from '../../components/form';
import { useFormat } from '../../lib/format';
import { matchesMountpoint, type RoverPosition, withDistances } from './position';

/** A network can have thousands of stations; the list shows this many and the search narrows it. */
const SHOWN = 100;

/** Every mountpoint of the account, searchable, nearest first when the position is known; one can be chosen. */
export function MountpointList({
  mountpoints,
  position,
  chosen,
  onChoose,
}: {
  mountpoints: AccountMountpoint[];
  position: RoverPosition | undefined;
  chosen: string | undefined;
  onChoose: (mountpoint: string) => void;
}) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const [query, setQuery] = useState('');
  const rows = useMemo(
    () => withDistances(mountpoints, position).filter((m) => matchesMountpoint(m, query)),
    [mountpoints, position, query],
  );
  return (
    <section className="flex flex-col gap-2" aria-label={t('details.mountpoints')}>
      <h3 className="text-sm font-semibold text-ink">{t('details.mountpoints')}</h3>
      <p className="text-xs text-muted">{t('details.mountpointsHint')}</p>
      {mountpoints.length > 8 && (
        <TextField
          label={t('card.searchMountpoints')}
          icon="search"
          type="search"
          size="sm"
          placeholder={t('card.searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      )}
      <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
        {rows.slice(0, SHOWN).map((m) => {
          const selected = m.mountpoint === chosen;
          return (
            <li
              key={m.mountpoint}
              className={`flex items-center gap-2 rounded-lg border py-1 pr-1 pl-3 text-sm ${selected ? 'border-accent bg-accent/10' : 'border-line bg-raised'}`}
            >
              <code className="font-mono text-ink">{m.mountpoint}</code>
              <span className="min-w-0 flex-1 truncate text-xs text-subtle">
                {m.kind === 'near' ? `${m.networkName} · ${t('details.nearest')}` : m.identifier}
                {m.distanceKm !== null &&
                  ` · ${t('card.distance', { km: format.number(Math.round(m.distanceKm * 10) / 10) })}`}
                {!m.online && ` · ${t('details.offline')}`}
              </span>
              <button
                type="button"
                aria-pressed={selected}
                aria-label={t('card.use', { mountpoint: m.mountpoint })}
                onClick={() => onChoose(m.mountpoint)}
                className="rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-hover hover:text-ink aria-pressed:text-accent"
              >
                {selected ? t('card.chosen') : t('card.useShort')}
              </button>
              <CopyControl value={m.mountpoint} label={t('details.copyMountpoint', { mountpoint: m.mountpoint })} />
            </li>
          );
        })}
      </ul>
      {rows.length > SHOWN && (
        <p className="text-xs text-muted">{t('card.more', { shown: SHOWN, total: rows.length })}</p>
      )}
      {mountpoints.length > 0 && rows.length === 0 && <p className="text-xs text-muted">{t('card.noMatch')}</p>}
    </section>
  );
}
