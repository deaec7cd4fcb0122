import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageQueryFields, pageSchema, pageWindow } from '../src/index.ts';

describe('one pagination shape', () => {
  const query = z.object(pageQueryFields({ defaultLimit: 20, maxLimit: 100 }));

  it('reads limit and offset from a query string, with the call’s default and maximum', () => {
    expect(query.parse({})).toEqual({ limit: 20, offset: 0 });
    expect(query.parse({ limit: '50', offset: '100' })).toEqual({ limit: 50, offset: 100 });
    expect(query.safeParse({ limit: '101' }).success).toBe(false);
    expect(query.safeParse({ limit: '0' }).success).toBe(false);
    expect(query.safeParse({ offset: '-1' }).success).toBe(false);
  });

  it('answers items with the total and the window they were read with', () => {
    const page = pageSchema(z.object({ id: z.string() }));
    expect(page.parse({ items: [{ id: 'a' }], total: 41, limit: 20, offset: 40 }).total).toBe(41);
    expect(page.safeParse({ items: [], page: 1, pageSize: 20, total: 0 }).success).toBe(false);
  });

  it('turns a page number into its window', () => {
    expect(pageWindow(1, 20)).toEqual({ limit: 20, offset: 0 });
    expect(pageWindow(3, 20)).toEqual({ limit: 20, offset: 40 });
  });
});
