import {
  type AdminUser,
  type AdminUserPatch,
  type AdminUsersPage,
  adminUserSchema,
  adminUsersPageSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchAdminUsers(query: {
  search?: string;
  limit: number;
  offset: number;
}): Promise<AdminUsersPage> {
  return adminUsersPageSchema.parse((await api.get('/admin/users', { params: query })).data);
}

export async function patchAdminUser(userId: string, patch: AdminUserPatch): Promise<AdminUser> {
  return adminUserSchema.parse((await api.patch(`/admin/users/${userId}`, patch)).data);
}
