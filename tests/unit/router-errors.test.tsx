import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouterErrorPage } from '../../src/app/RouterErrorPage';
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
    renderRoutes([{ path: '/', element: <Broken />, errorElement: <RouterErrorPage /> }], {
      path: '/',
      auth: undefined,
    });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('kaboom')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
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
