import { z } from 'zod';

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  url: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** `GET /user`: the organisations of the caller and the server-side admin flag (spec §3, §7). */
export const userInfoSchema = z.object({
  teams: z.array(teamSchema),
  isAdmin: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
