import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, apiError, setInviteTokenSource, setTokenSource } from '../../src/lib/api';
import { initTestI18n } from './support/i18n';
import { server } from './support/server';

const seen: Request[] = [];
beforeEach(() =>
  server.use(
    http.get('*/api/echo', ({ request }) => {
      seen.push(request);
      return HttpResponse.json({ ok: true });
    }),
    http.get('*/api/fails', () => HttpResponse.json({ code: 'forbidden', message: 'No.' }, { status: 403 })),
  ),
);

afterEach(() => {
  seen.length = 0;
  setTokenSource(async () => null);
  setInviteTokenSource(() => undefined);
});

describe('the portal API client', () => {
  it('repeats the key for array query parameters and drops empty ones', async () => {
    await api.get('/echo', { params: { status: ['online', 'offline'], network: 'nl', page: undefined } });
    const url = new URL(seen[0]?.url ?? '');
    expect(url.pathname).toBe('/api/echo');
    expect(url.search).toBe('?status=online&status=offline&network=nl');
  });

  it('sends the current identity token as a bearer credential, and none when logged out', async () => {
    await api.get('/echo');
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    setTokenSource(async () => 'id-token-123');
    await api.get('/echo');
    expect(seen[1]?.headers.get('authorization')).toBe('Bearer id-token-123');
  });

  it('sends the invite link the tab holds with signed-in calls only, for an invite-only sign-up', async () => {
    setInviteTokenSource(() => 'invite-secret');
    await api.get('/echo');
    expect(seen[0]?.headers.get('x-invite-token')).toBeNull();
    setTokenSource(async () => 'id-token-123');
    await api.get('/echo');
    expect(seen[1]?.headers.get('x-invite-token')).toBe('invite-secret');
    setInviteTokenSource(() => undefined);
    await api.get('/echo');
    expect(seen[2]?.headers.get('x-invite-token')).toBeNull();
  });

  it("sends the app's language, not the browser's, so translated texts come in it", async () => {
    await initTestI18n().changeLanguage('nl');
    await api.get('/echo');
    expect(seen[0]?.headers.get('accept-language')).toBe('nl');
  });

  it('exposes the code and status of an API error', async () => {
    const error = await api.get('/fails').catch((e: unknown) => e);
    expect(apiError(error)).toEqual({ code: 'forbidden', message: 'No.', status: 403 });
    expect(apiError(new Error('network down'))).toBeUndefined();
  });
});
