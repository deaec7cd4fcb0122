import { type ImportReport, MAX_SOURCETABLE_CHARS, type Network } from '@portal/contract';
import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { fieldClass } from '../../components/form';
import { apiError } from '../../lib/api';
import { importSourcetable } from './catalogue.api';
import { useCatalogueMutation } from './catalogue.mutations';

/**
 * Bulk import: paste or upload a caster's sourcetable, preview what each line would do, then import. STR lines
 * become stations of this network; the report says why any other line was skipped.
 */
export function SourcetableImport({ network }: { network: Network }) {
  const { t } = useTranslation('catalogue');
  const textId = useId();
  const [text, setText] = useState('');
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = useCatalogueMutation((dryRun: boolean) => importSourcetable(network.id, text, dryRun));
  const failure = run.error ? (apiError(run.error)?.message ?? t('errors.saveFailed')) : undefined;

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    setReport(null);
  };
  const start = (dryRun: boolean) => run.mutate(dryRun, { onSuccess: setReport });

  return (
    <section
      className="flex flex-col gap-3 rounded-2xl border border-line bg-panel p-5"
      aria-labelledby={`${textId}-title`}
    >
      <div>
        <h2 id={`${textId}-title`} className="text-base font-semibold text-ink">
          {t('import.title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('import.description')}</p>
      </div>
      <label htmlFor={textId} className="text-sm font-medium text-muted">
        {t('import.textLabel')}
      </label>
      <textarea
        id={textId}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setReport(null);
        }}
        maxLength={MAX_SOURCETABLE_CHARS}
        rows={8}
        spellCheck={false}
        placeholder="STR;MOUNT01;Delft;RTCM 3.3;1006(10),1077(1);2;GPS+GLO+GAL+BDS;NET;NLD;52.00;4.36;0;0;SEPT POLARX5;none;B;N;9600;"
        className={`${fieldClass} py-2 font-mono text-xs`}
        data-testid="import-text"
      />
      <div className="flex flex-wrap items-center gap-2">
        <label className="cursor-pointer text-sm text-accent hover:underline">
          {t('import.upload')}
          <input type="file" accept=".txt,.dat,.csv,text/plain" className="sr-only" onChange={readFile} />
        </label>
        <span className="mr-auto" />
        <Button variant="secondary" disabled={!text.trim() || run.isPending} onClick={() => start(true)}>
          {t('import.preview')}
        </Button>
        <Button disabled={!text.trim() || run.isPending} onClick={() => start(false)} data-testid="import-run">
          {run.isPending ? t('import.running') : t('import.run')}
        </Button>
      </div>
      {failure && <p className="text-sm text-status-red">{failure}</p>}
      {report && (
        <div className="flex flex-col gap-2" data-testid="import-report">
          <p className="text-sm text-ink">
            {t(report.dryRun ? 'import.summaryDryRun' : 'import.summary', {
              created: report.created,
              updated: report.updated,
              skipped: report.skipped,
            })}
          </p>
          <div className="max-h-72 overflow-auto rounded-lg border border-line">
            <table className="w-full text-left text-xs">
              <thead className="sticky top-0 bg-raised text-subtle">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    {t('import.line')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('fields.mountpoint')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('import.outcome')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('import.reason')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.lines.map((line) => (
                  <tr key={line.line} className="border-t border-line">
                    <td className="px-3 py-1.5 tabular-nums text-muted">{line.line}</td>
                    <td className="px-3 py-1.5 font-mono text-ink">{line.mountpoint ?? '–'}</td>
                    <td
                      className={`px-3 py-1.5 ${line.outcome === 'skipped' ? 'text-status-yellow' : 'text-status-green'}`}
                    >
                      {t(`import.outcomes.${line.outcome}`)}
                    </td>
                    <td className="px-3 py-1.5 text-muted">{line.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
