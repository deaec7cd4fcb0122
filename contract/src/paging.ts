import { z } from 'zod';

/** Past this a list is searched or filtered, not paged; also keeps a hostile offset from scanning a whole table. */
export const MAX_OFFSET = 10_000_000;

/**
 * The one way a list call pages (docs/architecture.md): `?limit=&offset=` in, `{items, total, limit, offset}` out.
 * `limit` is how many items a page holds at most and `offset` how many come before it, so a client pages by
 * any size, and `total` counts every match so it can say how many pages there are.
 */
export function pageQueryFields({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  };
}

/** The answer of a paged list call; `limit` and `offset` repeat the ones the page was read with. */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });
}

/** Which part of a list a page holds. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The query of page `page` (1-based) of `pageSize` items, for screens that page by number. */
export function pageWindow(page: number, pageSize: number): PageWindow {
  return { limit: pageSize, offset: (Math.max(1, page) - 1) * pageSize };
}
