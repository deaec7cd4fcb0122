import type { PageMeta } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { brand } from './brand';

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
  const meta = useQuery({
    queryKey: ['page-meta', page],
    queryFn: () => fetchPageMeta(page as string),
    enabled: Boolean(page),
    staleTime: 10 * 60_000,
    retry: false,
  });
  const title = meta.data?.title || pageTitle;
  const desc = meta.data?.description || description || DEFAULT_DESCRIPTION;
  useEffect(() => {
    document.title = formatTitle(brand.name, title);
    setDescription(desc);
  }, [title, desc]);
}
