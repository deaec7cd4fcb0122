// First: it configures zod before any schema below is made.
import './zod-in-browsers.ts';

export * from './api-keys.ts';
export * from './audit.ts';
export * from './back-office.ts';
export * from './billing.ts';
export * from './catalogue.ts';
export * from './connection-test.ts';
export * from './demo.ts';
export * from './documents.ts';
export * from './errors.ts';
export * from './invoicing.ts';
export * from './mail.ts';
export * from './meta.ts';
export * from './money.ts';
export * from './ntrip-accounts.ts';
export * from './ntrip-diagnostics.ts';
export * from './operator.ts';
export * from './organizations.ts';
export * from './paging.ts';
export * from './rinex.ts';
export * from './settings.ts';
export * from './status.ts';
export * from './user.ts';
export * from './webhooks.ts';
