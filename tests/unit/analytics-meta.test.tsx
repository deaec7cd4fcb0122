import { renderHook, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { injectGtm, readGclid, resetGtmInjection, track, trackPageView } from '../../src/lib/analytics';
import { DEFAULT_DESCRIPTION, formatTitle, usePageMeta } from '../../src/lib/page-meta';
import { server } from './support/server';
import { Wrapper } from './support/shell';

beforeEach(() =>
  server.use(
    http.get('*/api/meta/pages/stored', () =>
      HttpResponse.json({ title: 'Coverage map', description: 'All stations.' }),
    ),
    http.get('*/api/meta/pages/:page', () => HttpResponse.json({ code: 'not_found', message: 'no' }, { status: 404 })),
  ),
);

describe('page meta', () => {
  it("formats titles as 'brand | page title' and falls back to the product name", () => {
    expect(formatTitle('Meridian RTK', 'Subscriptions')).toBe('Meridian RTK | Subscriptions');
    expect(formatTitle('Meridian RTK')).toBe('Meridian RTK');
  });

  it('uses the page title and the default description when the server has no meta for the page', async () => {
    renderHook(() => usePageMeta('unknown-page', 'Credits'), {
      wrapper: ({ children }) => <Wrapper auth={undefined}>{children}</Wrapper>,
    });
    await waitFor(() => expect(document.title).toBe('Meridian RTK | Credits'));
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(DEFAULT_DESCRIPTION);
  });

  it('takes title and description from GET /meta/pages/{page} when it answers 200', async () => {
    renderHook(() => usePageMeta('stored', 'Map'), {
      wrapper: ({ children }) => <Wrapper auth={undefined}>{children}</Wrapper>,
    });
    await waitFor(() => expect(document.title).toBe('Meridian RTK | Coverage map'));
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('All stations.');
  });
});

describe('analytics', () => {
  beforeEach(() => {
    window.dataLayer = [];
    localStorage.clear();
    Cookies.remove('gclid');
    resetGtmInjection();
    document.head.querySelectorAll('script').forEach((s) => {
      s.remove();
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads the ad click id from the cookie first, then the gclid query parameter, then local storage', () => {
    expect(readGclid('')).toBeUndefined();
    localStorage.setItem('gclid', 'from-storage');
    expect(readGclid('')).toBe('from-storage');
    expect(readGclid('?gclid=from-query')).toBe('from-query');
    expect(localStorage.getItem('gclid')).toBe('from-query');
    Cookies.set('gclid', 'from-cookie');
    expect(readGclid('?gclid=from-query')).toBe('from-cookie');
  });

  it('pushes the typed data-layer events and page views', () => {
    track({ event: 'login', userId: 'u1', userRole: 'admin' });
    track({ event: 'organizationCreated', name: 'Survey BV' });
    trackPageView('/dashboard', 'Meridian RTK | Dashboard');
    expect(window.dataLayer).toEqual([
      { event: 'login', userId: 'u1', userRole: 'admin' },
      { event: 'organizationCreated', name: 'Survey BV' },
      expect.objectContaining({ event: 'page_view', page_path: '/dashboard', page_title: 'Meridian RTK | Dashboard' }),
    ]);
  });

  it('loads nothing without a container id, and injects the GTM script with one', () => {
    expect(injectGtm('')).toBe(false);
    expect(document.querySelector('script[src*="googletagmanager"]')).toBeNull();
    expect(injectGtm('GTM-TEST1')).toBe(true);
    expect(document.querySelector('script[src*="googletagmanager"]')?.getAttribute('src')).toContain('id=GTM-TEST1');
  });

  it("only logs 'GTM injection failed' when injection fails", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const broken = {
      createElement: () => {
        throw new Error('blocked');
      },
    } as unknown as Document;
    expect(() => injectGtm('GTM-TEST2', broken)).not.toThrow();
    expect(warn).toHaveBeenCalledWith('GTM injection failed', expect.any(Error));
  });
});
