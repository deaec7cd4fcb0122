import { INVITE_TOKEN_HEADER } from '@portal/contract/invite-link';
import axios from 'axios';
import i18n from 'i18next';
import { currentInviteToken, currentToken } from './api-token';

export { apiError } from './api-error';
export { setInviteTokenSource, setTokenSource } from './api-token';

function serializeParams(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    // Arrays repeat their key (a=1&a=2), as the portal API expects (spec §7).
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search.toString();
}

export const api = axios.create({
  baseURL: import.meta.env.VITE_API_BASE_URL ?? '/api',
  withCredentials: true,
  timeout: 0,
  paramsSerializer: { serialize: serializeParams },
});

api.interceptors.request.use(async (config) => {
  const token = await currentToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  const invite = token ? currentInviteToken() : undefined;
  if (invite) config.headers.set(INVITE_TOKEN_HEADER, invite);
  // The app's language, not the browser's: the server answers texts an operator translated in it (networks).
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language) config.headers.set('Accept-Language', language);
  return config;
});

/** Files need the bearer credential, so they are fetched and handed to the browser. */
export async function download(path: string, params: object | undefined, fallbackName: string): Promise<void> {
  const response = await api.get(path, { params, responseType: 'blob' });
  const disposition = String(response.headers['content-disposition'] ?? '');
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(response.data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
