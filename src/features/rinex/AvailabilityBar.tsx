import type { HourAvailability } from '@portal/contract';
import { useTranslation } from 'react-i18next';

const hourLabel = (iso: string) => iso.slice(11, 16);

function tone(h: HourAvailability): string {
  if (h.future) return 'bg-transparent border border-dashed border-line-strong';
  if (h.status === 'full') return 'bg-status-green';
  if (h.status === 'partial') return 'bg-status-yellow';
  return 'bg-line';
}

/**
 * One cell per UTC hour: full, partial (with the share of epochs), no data, or not yet. A click chooses that hour;
 * with Shift held it extends the chosen hours to it.
 */
export function AvailabilityBar({
  hours,
  selected,
  onPick,
}: {
  hours: HourAvailability[];
  /** Indexes [from, to) of the chosen hours. */
  selected: [number, number];
  onPick: (index: number, extend: boolean) => void;
}) {
  const { t } = useTranslation('rinex');
  const describe = (h: HourAvailability) => {
    const hour = hourLabel(h.start);
    if (h.future) return t('availability.hourFuture', { hour });
    if (h.recording && h.status !== 'none') return t('availability.hourRecording', { hour, percent: h.percent });
    if (h.status === 'full') return t('availability.hourFull', { hour });
    if (h.status === 'partial') return t('availability.hourPartial', { hour, percent: h.percent });
    return t('availability.hourNone', { hour });
  };
  return (
    <div className="flex flex-col gap-2">
      <ol
        aria-label={t('availability.title')}
        className="grid grid-cols-12 gap-1 sm:grid-cols-[repeat(24,minmax(0,1fr))]"
        data-testid="availability-bar"
      >
        {hours.map((h, i) => {
          const chosen = i >= selected[0] && i < selected[1];
          return (
            <li key={h.start}>
              <button
                type="button"
                title={describe(h)}
                aria-label={describe(h)}
                aria-pressed={chosen}
                data-status={h.future ? 'future' : h.status}
                onClick={(e) => onPick(i, e.shiftKey)}
                className={`flex h-10 w-full flex-col items-center justify-end rounded-md pb-0.5 text-[10px] leading-none ${tone(h)} ${
                  chosen ? 'ring-2 ring-accent ring-offset-2 ring-offset-panel' : ''
                }`}
              >
                <span className={h.status === 'none' || h.future ? 'text-subtle' : 'font-semibold text-black/70'}>
                  {h.status === 'partial' ? `${h.percent}%` : ''}
                </span>
              </button>
              <span className="mt-0.5 block text-center text-[10px] text-subtle tabular-nums">
                {hourLabel(h.start).slice(0, 2)}
              </span>
            </li>
          );
        })}
      </ol>
      <ul className="flex flex-wrap gap-4 text-xs text-muted">
        {(
          [
            ['bg-status-green', 'legendFull'],
            ['bg-status-yellow', 'legendPartial'],
            ['bg-line', 'legendNone'],
            ['border border-dashed border-line-strong', 'legendFuture'],
          ] as const
        ).map(([swatch, key]) => (
          <li key={key} className="flex items-center gap-1.5">
            <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${swatch}`} />
            {t(`availability.${key}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
