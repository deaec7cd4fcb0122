import type { PageMeta } from '@portal/contract';
import i18n from 'i18next';
import { useEffect, useState } from 'react';
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

/** Answers kept for ten minutes, by page: a page shown again asks no more. */
const cache = new Map<string, { at: number; meta: Promise<PageMeta | null> }>();
const FRESH_MS = 10 * 60_000;

async function fetchPageMeta(page: string): Promise<PageMeta | null> {
  try {
    // A plain fetch, not axios and React Query: this call is all a logged-out page asks at first, and neither is
    // needed for it, so a first visit fetches neither (issue 39). The meta is public: no credential.
    const base = import.meta.env.VITE_API_BASE_URL ?? '/api';
    const language = i18n.resolvedLanguage ?? i18n.language;
    const response = await fetch(`${base}/meta/pages/${encodeURIComponent(page)}`, {
      headers: language ? { 'Accept-Language': language } : {},
    });
    if (response.status !== 200) return null;
    const data: unknown = await response.json();
    return isPageMeta(data) ? data : null;
  } catch {
    return null; // unreachable or an older server's 404: keep the defaults
  }
}

function pageMeta(page: string): Promise<PageMeta | null> {
  const held = cache.get(page);
  if (held && Date.now() - held.at < FRESH_MS) return held.meta;
  const meta = fetchPageMeta(page);
  cache.set(page, { at: Date.now(), meta });
  return meta;
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
  useEffect(() => {
    setMeta(undefined);
    if (!page) return;
    let active = true;
    void pageMeta(page).then((answer) => {
      if (active) setMeta(answer);
    });
    return () => {
      active = false;
    };
  }, [page]);
  const title = meta?.title || pageTitle;
  const desc = meta?.description || description || DEFAULT_DESCRIPTION;
  useEffect(() => {
    document.title = formatTitle(brand.name, title);
    setDescription(desc);
  }, [title, desc]);
}
