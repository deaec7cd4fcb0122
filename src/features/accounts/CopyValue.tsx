import { CopyControl } from '../../components/CopyControl';

/** A labelled value in monospace with its copy control (spec §4: the check shows for 2 seconds). */
export function CopyValue({
  label,
  value,
  copyLabel,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-subtle">{label}</span>
      <div className="flex items-center gap-2 rounded-lg border border-line bg-raised py-1 pr-1 pl-3">
        <code data-testid={testId} className="min-w-0 flex-1 truncate font-mono text-sm text-ink" title={value}>
          {value}
        </code>
        <CopyControl value={value} label={copyLabel} />
      </div>
    </div>
  );
}
