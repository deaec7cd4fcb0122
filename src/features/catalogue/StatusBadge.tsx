import { useTranslation } from 'react-i18next';

const tones: Record<string, string> = {
  online: 'bg-status-green/15 text-status-green',
  connected: 'bg-status-green/15 text-status-green',
  active: 'bg-status-green/15 text-status-green',
  offline: 'bg-status-red/15 text-status-red',
  error: 'bg-status-red/15 text-status-red',
  retired: 'bg-status-red/15 text-status-red',
  maintenance: 'bg-status-yellow/15 text-status-yellow',
  connecting: 'bg-status-yellow/15 text-status-yellow',
  idle: 'bg-status-blue/15 text-status-blue',
  disabled: 'bg-status-blue/15 text-status-blue',
};

/** Station, network and feed states share one look: a coloured pill with the translated state. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('catalogue');
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tones[status] ?? tones.idle}`}>
      {t(`status.${status}`)}
    </span>
  );
}
