import { act, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from '../../src/app/RouterErrorPage';
import { CHUNK_TIMEOUT_MS, page } from '../../src/app/routes';
import { renderRoutes } from './support/shell';

function EmptyPage() {
  return null;
}

function Broken(): never {
  throw new Error('kaboom');
}

describe('router failures', () => {
  afterEach(() => vi.useRealTimers());

  it("shows the page headed 'Unexpected Application Error!' when a route throws", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <RouteErrorBoundary>
              <Broken />
            </RouteErrorBoundary>
          ),
        },
      ],
      { path: '/', auth: undefined },
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('kaboom')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    vi.restoreAllMocks();
  });

  it('leaves the error page when the visitor goes to another address', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderRoutes(
      [
        {
          element: (
            <RouteErrorBoundary>
              <Outlet />
            </RouteErrorBoundary>
          ),
          children: [
            { path: '/broken', element: <Broken /> },
            { path: '/fine', element: <p>All well</p> },
          ],
        },
      ],
      { path: '/broken', auth: undefined },
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    await act(() => router.navigate('/fine'));
    expect(await screen.findByText('All well')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).not.toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it('gives up loading a page chunk after 120 s', async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const pending = page(() => new Promise<{ X: () => null }>(() => undefined), 'X')();
    const outcome = pending.then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('Loading the page timed out.');
  });

  it('resolves a lazily loaded page to its named export', async () => {
    await expect(page(async () => ({ MyPage: EmptyPage }), 'MyPage')()).resolves.toEqual({ Component: EmptyPage });
  });
});
