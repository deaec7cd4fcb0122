import { z } from 'zod';

export const appMetaSchema = z.object({ gtagID: z.string() });
export type AppMeta = z.infer<typeof appMetaSchema>;

export const putAppMetaBodySchema = z.object({ gtagId: z.string().trim().max(64) });
export type PutAppMetaBody = z.infer<typeof putAppMetaBodySchema>;

export const pageNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens');

export const pageMetaParamsSchema = z.object({ page: pageNameSchema });

export const pageMetaSchema = z.object({ title: z.string(), description: z.string() });
export type PageMeta = z.infer<typeof pageMetaSchema>;

export const putPageMetaBodySchema = z.object({
  title: z.string().trim().min(1).max(120),
  description: z.string().trim().max(400),
});
export type PutPageMetaBody = z.infer<typeof putPageMetaBodySchema>;
