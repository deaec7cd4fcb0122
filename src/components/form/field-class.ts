/**
 * The look of every input and select. A module of its own: a page with only a select (the marketplace's network
 * picker) then loads no TextField with it.
 */
export const fieldClass =
  'w-full rounded-lg border border-line-strong bg-raised px-3 text-ink placeholder:text-subtle transition-colors focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/25 disabled:opacity-60 aria-[invalid=true]:border-status-red';
