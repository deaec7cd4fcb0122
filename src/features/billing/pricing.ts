import type { PricingProduct } from '@portal/contract';

/** Spec §9: pricing products sort by amount ascending (then by name, for a stable order). */
export function sortByAmount<T extends Pick<PricingProduct, 'amount' | 'name'>>(products: readonly T[]): T[] {
  return [...products].sort((a, b) => a.amount - b.amount || a.name.localeCompare(b.name));
}

/**
 * Spec §9: 1, 2, 3 or 4 columns on large screens according to product count (one column on phones, at most two
 * on tablets). Full class names so Tailwind finds them.
 */
export function pricingGridClass(count: number): string {
  if (count <= 1) return 'grid-cols-1 max-w-sm';
  if (count === 2) return 'grid-cols-1 md:grid-cols-2 max-w-3xl';
  if (count === 3) return 'grid-cols-1 md:grid-cols-2 lg:grid-cols-3';
  return 'grid-cols-1 md:grid-cols-2 lg:grid-cols-4';
}

export function gridColumnsFor(count: number): 1 | 2 | 3 | 4 {
  return Math.min(Math.max(count, 1), 4) as 1 | 2 | 3 | 4;
}
