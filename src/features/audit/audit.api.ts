import { type AuditPage, auditPageSchema } from '@portal/contract';
import { api } from '../../lib/api';

export interface AuditFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export async function fetchAudit(filter: AuditFilter): Promise<AuditPage> {
  return auditPageSchema.parse((await api.get('/admin/audit', { params: filter })).data);
}
