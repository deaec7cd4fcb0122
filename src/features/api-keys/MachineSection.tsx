import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';

/**
 * The frame of a machine-access section (API keys, webhooks) on /settings or an organisation's page: its title and
 * introduction, what is shown once after a change, the form that makes one, and the list once it has loaded.
 */
export function MachineSection<T>({
  testId,
  title,
  intro,
  shownOnce,
  form,
  query,
  children,
}: {
  testId: string;
  title: string;
  intro: string;
  shownOnce: ReactNode;
  form: ReactNode;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-5"
      data-testid={testId}
    >
      <div>
        <h2 id={titleId} className="text-base font-semibold text-ink">
          {title}
        </h2>
        <p className="mt-1 text-sm text-muted">{intro}</p>
      </div>
      {shownOnce}
      {form}
      {query.isError ? <GenericErrorBlock /> : query.data === undefined ? <Preloader /> : children(query.data)}
    </section>
  );
}
