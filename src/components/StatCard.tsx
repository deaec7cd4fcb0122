import type { ReactNode } from 'react';

export type StatusColor = 'green' | 'red' | 'yellow' | 'blue';

const statusHex: Record<StatusColor, string> = {
  green: 'var(--color-status-green)',
  red: 'var(--color-status-red)',
  yellow: 'var(--color-status-yellow)',
  blue: 'var(--color-status-blue)',
};

export interface StatCardProps {
  title: string;
  value: ReactNode;
  /** Any CSS background; the panel colour when absent. */
  background?: string;
  /** A small indicator drawn as a gradient from one status colour to another. */
  status?: { from: StatusColor; to: StatusColor };
  hint?: ReactNode;
}

export function StatCard({ title, value, background, status, hint }: StatCardProps) {
  return (
    <div className="rounded-2xl border border-line bg-panel p-5" style={background ? { background } : undefined}>
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-muted">{title}</p>
        {status && (
          <span
            data-testid="stat-status"
            data-from={status.from}
            data-to={status.to}
            aria-hidden="true"
            className="size-2.5 rounded-full"
            style={{ background: `linear-gradient(135deg, ${statusHex[status.from]}, ${statusHex[status.to]})` }}
          />
        )}
      </div>
      <p className="mt-2 text-2xl font-semibold tracking-tight text-ink tabular-nums">{value}</p>
      {hint && <p className="mt-1 text-xs text-subtle">{hint}</p>}
    </div>
  );
}
