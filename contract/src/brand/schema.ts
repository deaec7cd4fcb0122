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

/** Every field a brand has (spec §1). Brands are data: validated here, turned into CSS variables at start. */
export const brandSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9-]*$/),
  /** Product name, interpolated into translations as {{product}}. */
  name: z.string().min(1),
  /** Short name (e.g. the company), used where the full name does not fit. */
  secondName: z.string().min(1),
  /** Terms and conditions address; opened in a new tab. Empty when the brand has none. */
  termsLink: z.union([z.url(), z.literal('')]),
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
