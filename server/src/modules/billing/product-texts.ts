import type { ProductTexts, ProductTranslations } from '@portal/contract';
import type { ContentLanguage } from '../../shared/language.ts';

/**
 * A product's customer-visible texts in the reader's language where the operator wrote them: each empty
 * translation (a blank name or description, no attributes) falls back to the base (English) text on its own.
 * Without a language, the base texts, as the admin edits them and as payments, invoices and the ledger record them.
 */
export function productTexts(
  product: { name: string; description: string; attributes: string[]; translations?: ProductTranslations | null },
  language?: ContentLanguage,
): ProductTexts {
  const texts = language === 'nl' ? product.translations?.nl : undefined;
  return {
    name: texts?.name || product.name,
    description: texts?.description || product.description,
    attributes: texts?.attributes.length ? texts.attributes : product.attributes,
  };
}

/** The product's name alone, for the views that show only the name (subscriptions, checkout). */
export function productName(
  view: { product_name: string; product_translations?: ProductTranslations | null },
  language?: ContentLanguage,
): string {
  return (language === 'nl' && view.product_translations?.nl?.name) || view.product_name;
}
