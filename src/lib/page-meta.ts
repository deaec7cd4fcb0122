import type { PageMeta } from '@portal/contract';
import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useEffect, useState } from 'react';
import { brand } from './brand';
import { loadQueries } from './query-client-slot';

export const DEFAULT_DESCRIPTION = 'GNSS correction platform with real-time RTK and RINEX post-processing data.';

/** Spec §1: 'brand | page title'; the product name alone when there is no page title. */
export function formatTitle(brandName: string, pageTitle?: string): string {
  return pageTitle ? `${brandName} | ${pageTitle}` : brandName;
}

/** Checked by hand: zod is not part of a first page load. */
function isPageMeta(data: unknown): data is PageMeta {
  const meta = data as Partial<PageMeta> | null;
  return typeof meta?.title === 'string' && typeof meta.description === 'string';
}

async function fetchPageMeta(page: string): Promise<PageMeta | null> {
  try {
    // axios loads with the first call, after the page has drawn: it is not part of the first load.
    const { api } = await import('./api');
    const response = await api.get(`/meta/pages/${encodeURIComponent(page)}`, { validateStatus: (s) => s === 200 });
    return isPageMeta(response.data) ? response.data : null;
  } catch {
    return null; // unreachable or an older server's 404: keep the defaults
  }
}

function setDescription(content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/**
 * Sets the document title and description of a page: the page's own title ('brand | title'), replaced by the
 * title/description of `GET /meta/pages/{page}` when the server answers 200.
 */
export function usePageMeta(page: string | undefined, pageTitle?: string, description?: string): void {
  const [meta, setMeta] = useState<PageMeta | null>();
  const client = useContext(QueryClientContext);
  // Observed by hand, not with useQuery: the page draws first and React Query loads after (query-client-slot.tsx).
  useEffect(() => {
    setMeta(undefined);
    if (!page) return;
    let active = true;
    let unsubscribe: (() => void) | undefined;
    void loadQueries().then(({ queryClient, QueryObserver }) => {
      if (!active) return;
      const observer = new QueryObserver(client ?? queryClient, {
        queryKey: ['page-meta', page],
        queryFn: () => fetchPageMeta(page),
        staleTime: 10 * 60_000,
        retry: false,
      });
      unsubscribe = observer.subscribe((result) => setMeta(result.data));
      setMeta(observer.getCurrentResult().data);
    });
    return () => {
      active = false;
      unsubscribe?.();
    };
  }, [page, client]);
  const title = meta?.title || pageTitle;
  const desc = meta?.description || description || DEFAULT_DESCRIPTION;
  useEffect(() => {
    document.title = formatTitle(brand.name, title);
    setDescription(desc);
  }, [title, desc]);
}
