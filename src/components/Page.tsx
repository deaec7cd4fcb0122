import type { ReactNode } from 'react';
import { usePageMeta } from '../lib/page-meta';

/**
 * A routed page: sets the document title ('brand | title') and description (server page meta wins), and renders
 * the page heading with optional subtitle and actions.
 */
export function Page({
  name,
  title,
  subtitle,
  actions,
  children,
  hideHeading = false,
}: {
  /** Page key for GET /meta/pages/{name}. */
  name: string;
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  hideHeading?: boolean;
}) {
  // The subtitle says what the page is for: the page's description for search engines too.
  usePageMeta(name, title, typeof subtitle === 'string' ? subtitle : undefined);
  return (
    <div className="flex flex-col gap-6">
      {!hideHeading && (
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
            {subtitle && <p className="mt-1 text-sm text-muted">{subtitle}</p>}
          </div>
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </div>
  );
}
