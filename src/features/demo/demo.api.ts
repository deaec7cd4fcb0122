import {
  type DemoRequest,
  type DemoRequestPage,
  demoRequestCreatedSchema,
  demoRequestPageSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

/** The automation webhook the form posts to (build-time VITE_DEMO_WEBHOOK_URL); empty means the portal API. */
export function demoWebhookUrl(): string | undefined {
  return import.meta.env.VITE_DEMO_WEBHOOK_URL?.trim() || undefined;
}

/** Thrown for a non-ok answer; a network error rejects with the fetch or axios error itself. */
export class DemoSubmissionError extends Error {
  constructor(readonly status: number) {
    super(`The demo request was answered with HTTP ${status}.`);
  }
}

/**
 * Delivers the request (spec §7): to the automation webhook when one is configured, else to POST /api/demo-requests.
 * The webhook is a third party, so it gets a plain fetch without cookies or the user's identity token.
 */
export async function submitDemoRequest(body: DemoRequest): Promise<void> {
  const webhook = demoWebhookUrl();
  if (webhook) {
    const res = await fetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
    });
    if (!res.ok) throw new DemoSubmissionError(res.status);
    return;
  }
  demoRequestCreatedSchema.parse((await api.post('/demo-requests', body)).data);
}

export async function fetchDemoRequests(page: { limit: number; offset: number }): Promise<DemoRequestPage> {
  return demoRequestPageSchema.parse((await api.get('/admin/demo-requests', { params: page })).data);
}
