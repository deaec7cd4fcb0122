import { CopyControl } from './CopyControl';

/**
 * A labelled value in monospace with its copy control (spec §4: the check shows for 2 seconds). A multi-line value
 * (a command, configuration lines) wraps in full instead of being cut to one line.
 */
export function CopyValue({
  label,
  value,
  copyLabel,
  testId,
  multiline = false,
}: {
  label: string;
  value: string;
  copyLabel: string;
  testId?: string;
  multiline?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-subtle">{label}</span>
      <div
        className={`flex gap-2 rounded-lg border border-line bg-raised pr-1 pl-3 ${multiline ? 'items-start py-2' : 'items-center py-1'}`}
      >
        {multiline ? (
          <pre className="min-w-0 flex-1 overflow-x-auto font-mono text-sm whitespace-pre-wrap break-all text-ink">
            <code data-testid={testId}>{value}</code>
          </pre>
        ) : (
          <code data-testid={testId} className="min-w-0 flex-1 truncate font-mono text-sm text-ink" title={value}>
            {value}
          </code>
        )}
        <CopyControl value={value} label={copyLabel} />
      </div>
    </div>
  );
}
