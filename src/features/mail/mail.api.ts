import {
  type NotificationPreferences,
  notificationPreferencesSchema,
  OUTBOX_PAGE_SIZE,
  type OutboxPage,
  outboxPageSchema,
  pageWindow,
  type UpdateNotificationPreferences,
} from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchNotificationPreferences(): Promise<NotificationPreferences> {
  return notificationPreferencesSchema.parse((await api.get('/user/notifications')).data);
}

export async function saveNotificationPreferences(
  patch: UpdateNotificationPreferences,
): Promise<NotificationPreferences> {
  return notificationPreferencesSchema.parse((await api.put('/user/notifications', patch)).data);
}

export async function fetchOutbox(page: number): Promise<OutboxPage> {
  return outboxPageSchema.parse((await api.get('/admin/outbox', { params: pageWindow(page, OUTBOX_PAGE_SIZE) })).data);
}
