import type { DemoRequest } from '@portal/contract';
import type { Database } from '../../db/client.ts';

export type DemoRepo = ReturnType<typeof createDemoRepo>;

export interface NewDemoRequest extends Omit<DemoRequest, 'loggedInEmail'> {
  loggedInEmail: string;
  userId: string | null;
}

export function createDemoRepo(db: Database) {
  return {
    /** Account deletion takes the person's requests with it. */
    async deleteForUser(userId: string, trx: Database = db) {
      await trx.deleteFrom('demo_requests').where('user_id', '=', userId).execute();
    },

    async insert(request: NewDemoRequest, trx: Database = db) {
      return trx
        .insertInto('demo_requests')
        .values({
          first_name: request.firstName,
          last_name: request.lastName,
          email: request.email,
          logged_in_email: request.loggedInEmail,
          user_id: request.userId,
          company: request.company,
          phone_number: request.phoneNumber,
          submitted_from: request.submittedFrom,
          message: request.message,
          gclid: request.gclid,
        })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
    },
    /** Newest first; ties on the timestamp break by id so pages never overlap. */
    async list(page: { limit: number; offset: number }, trx: Database = db) {
      const [rows, count] = await Promise.all([
        trx
          .selectFrom('demo_requests')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        trx
          .selectFrom('demo_requests')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
