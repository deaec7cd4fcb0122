import type { AppDeps } from './app.ts';
import { type Config, paymentProviderOf } from './config.ts';

/**
 * What the API takes from the configuration, in one place a test can check: the key that seals pull-feed
 * credentials must be the caster's (config.FEED_SECRET_KEY) in every mode, or the caster cannot open them.
 */
export function apiOptionsOf(
  config: Config,
): Pick<
  AppDeps,
  | 'staticDir'
  | 'billing'
  | 'anonymousRequestsPerMinute'
  | 'signedInRequestsPerMinute'
  | 'apiKeyRequestsPerMinute'
  | 'webhooks'
  | 'feedSecretKey'
  | 'trustProxy'
  | 'strictTransportSecurity'
  | 'logger'
  | 'mail'
> {
  return {
    staticDir: config.STATIC_DIR,
    billing: {
      provider: paymentProviderOf(config),
      stripeSecretKey: config.STRIPE_SECRET_KEY,
      stripeWebhookSecret: config.STRIPE_WEBHOOK_SECRET,
      publicUrl: config.PUBLIC_URL,
      requireTaxSetup: config.NODE_ENV === 'production',
    },
    anonymousRequestsPerMinute: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    signedInRequestsPerMinute: config.RATE_LIMIT_SIGNED_IN_PER_MINUTE,
    apiKeyRequestsPerMinute: config.RATE_LIMIT_API_KEY_PER_MINUTE,
    webhooks: { allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES },
    feedSecretKey: config.FEED_SECRET_KEY,
    trustProxy: config.TRUST_PROXY,
    strictTransportSecurity: config.NODE_ENV === 'production',
    logger: { level: config.LOG_LEVEL },
    mail: {
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      brand: config.VITE_BRAND,
      stationAlertGraceMs: config.STATION_ALERT_GRACE_SECONDS * 1000,
      stationAlertCheckMs: config.STATION_ALERT_CHECK_SECONDS * 1000,
    },
  };
}
