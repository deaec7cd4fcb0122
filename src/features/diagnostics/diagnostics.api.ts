import {
  type AdminLiveSessionList,
  adminLiveSessionListSchema,
  type LiveSessionList,
  type LiveSourceList,
  type LoginFailurePage,
  type LoginFailureQuery,
  liveSessionListSchema,
  liveSourceListSchema,
  loginFailurePageSchema,
  type Refusal,
  refusalListSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

/** The account's refused attempts; `admin` reads them through the admin path (any account). */
export async function fetchRefusals(accountId: string, admin = false): Promise<Refusal[]> {
  const path = admin ? `/admin/ntrip-accounts/${accountId}/refusals` : `/ntrip-accounts/${accountId}/refusals`;
  return refusalListSchema.parse((await api.get(path)).data).items;
}

export async function fetchLoginFailures(query: LoginFailureQuery): Promise<LoginFailurePage> {
  return loginFailurePageSchema.parse((await api.get('/admin/ntrip-login-failures', { params: query })).data);
}

export async function fetchLiveSessions(accountId: string, admin = false): Promise<LiveSessionList> {
  const path = admin
    ? `/admin/ntrip-accounts/${accountId}/live-sessions`
    : `/ntrip-accounts/${accountId}/live-sessions`;
  return liveSessionListSchema.parse((await api.get(path)).data);
}

export async function fetchAdminLiveSessions(): Promise<AdminLiveSessionList> {
  return adminLiveSessionListSchema.parse((await api.get('/admin/ntrip-live-sessions')).data);
}

export async function fetchLiveSources(): Promise<LiveSourceList> {
  return liveSourceListSchema.parse((await api.get('/admin/ntrip-live-sources')).data);
}
