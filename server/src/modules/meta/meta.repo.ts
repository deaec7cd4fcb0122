import type { Database } from '../../db/client.ts';

export type MetaRepo = ReturnType<typeof createMetaRepo>;

export function createMetaRepo(db: Database) {
  return {
    async getAppMeta() {
      return db.selectFrom('app_meta').select(['gtag_id']).executeTakeFirstOrThrow();
    },
    async setGtagId(gtagId: string, updatedBy: string) {
      await db
        .updateTable('app_meta')
        .set({ gtag_id: gtagId, updated_by: updatedBy, updated_at: new Date() })
        .execute();
    },
    async getPageMeta(page: string) {
      return db.selectFrom('page_meta').select(['title', 'description']).where('page', '=', page).executeTakeFirst();
    },
    async putPageMeta(page: string, title: string, description: string, updatedBy: string) {
      await db
        .insertInto('page_meta')
        .values({ page, title, description, updated_by: updatedBy })
        .onConflict((oc) =>
          oc.column('page').doUpdateSet({ title, description, updated_by: updatedBy, updated_at: new Date() }),
        )
        .execute();
    },
  };
}
