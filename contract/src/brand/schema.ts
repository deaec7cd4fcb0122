import { z } from 'zod';

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour');
const publicPath = z.string().regex(/^\/[\w./-]+$/, 'an absolute path under public/');

/** Colours handed to the card-payment widget (spec §1: "a set of payment-widget colours"). */
export const paymentWidgetColorsSchema = z.object({
  colorPrimary: hexColor,
  colorBackground: hexColor,
  colorText: hexColor,
  colorDanger: hexColor,
  colorBorder: hexColor,
});

/** Top-level domains that never resolve (RFC 2606, RFC 6761): a link there is a placeholder, not a page. */
const RESERVED_TLDS = ['example', 'test', 'invalid', 'localhost', 'local'];

/**
 * An address of the brand's own outside the portal: https, on a host that can exist. Checked when the SPA is built
 * (vite.config.ts), so a placeholder address never reaches users.
 */
export const externalHttpsUrlSchema = z.url().refine(isRealHttpsUrl, {
  message: 'must be an https address on a real domain (not example, test, invalid or localhost)',
});

function isRealHttpsUrl(value: string): boolean {
  const host = /^https:\/\/([^/?#:@]+)(?::\d+)?(?:[/?#]|$)/i.exec(value)?.[1]?.toLowerCase();
  if (!host) return false;
  const labels = host.split('.');
  const tld = labels.at(-1) ?? '';
  const exampleDomain = labels.at(-2) === 'example' && ['com', 'net', 'org'].includes(tld);
  return labels.length >= 2 && !RESERVED_TLDS.includes(tld) && !exampleDomain;
}

/** How customers reach the brand's support, shown on /help: an e-mail address, a page, or both. */
export const supportContactSchema = z
  .object({ email: z.email().optional(), url: externalHttpsUrlSchema.optional() })
  .refine((s) => s.email !== undefined || s.url !== undefined, { message: 'needs an e-mail address or a URL' });

/** Every field a brand has (spec §1). Brands are data: validated here, turned into CSS variables at start. */
export const brandSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9-]*$/),
  /** Product name, interpolated into translations as {{product}}. */
  name: z.string().min(1),
  /** Short name (e.g. the company), used where the full name does not fit. */
  secondName: z.string().min(1),
  /**
   * The brand's own terms and conditions outside the portal; opened in a new tab. Empty: the portal's own published
   * terms at /legal/terms.
   */
  termsLink: z.union([externalHttpsUrlSchema, z.literal('')]),
  support: supportContactSchema,
  iconLogo: publicPath,
  favicon: publicPath,
  textLogo: publicPath,
  isRebranded: z.boolean(),
  showPromotionCTAs: z.boolean(),
  /** The accent colour on the dark theme (buttons, active menu items, focus rings). */
  darkModePrimaryColor: hexColor,
  /** Text colour on top of the accent. */
  onPrimaryColor: hexColor,
  darkMapDefault: z.boolean(),
  /** Google Tag Manager container id (GTM-XXXX); empty means no tag manager is loaded. */
  gtmContainerId: z.union([z.string().regex(/^GTM-[A-Z0-9]+$/), z.literal('')]),
  paymentWidgetColors: paymentWidgetColorsSchema,
  /** Shown as "Powered by …" when the brand is rebranded. */
  poweredBy: z.object({ name: z.string().min(1), url: z.url() }).optional(),
});

export type Brand = z.infer<typeof brandSchema>;
