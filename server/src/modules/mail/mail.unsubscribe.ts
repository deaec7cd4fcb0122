import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { OPTIONAL_MAIL_TOPICS, type OptionalMailTopic } from '@portal/contract';

/**
 * The one-click unsubscribe token: user and topic, signed with a key derived from the portal's secret
 * (FEED_SECRET_KEY) under a purpose of its own. It does not expire: a link in an old mail must still work.
 */
export interface UnsubscribeSigner {
  sign(userId: string, topic: OptionalMailTopic): string;
  /** The user and topic, or undefined for a token this portal did not sign. */
  verify(token: string): { userId: string; topic: OptionalMailTopic } | undefined;
}

export function createUnsubscribeSigner(secretBase64: string): UnsubscribeSigner {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretBase64, 'base64'), '', 'mail-unsubscribe', 32));
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign(userId, topic) {
      const payload = Buffer.from(`${userId}.${topic}`).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },
    verify(token) {
      const [payload = '', signature = '', ...rest] = token.split('.');
      if (rest.length) return undefined;
      const wanted = Buffer.from(mac(payload));
      const given = Buffer.from(signature);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
      const [userId = '', topic = ''] = Buffer.from(payload, 'base64url').toString().split('.');
      if (!(OPTIONAL_MAIL_TOPICS as readonly string[]).includes(topic)) return undefined;
      return { userId, topic: topic as OptionalMailTopic };
    },
  };
}
