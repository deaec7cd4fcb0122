export { type AuditRepo, createAuditRepo } from './audit.repo.ts';
export { auditRoutes } from './audit.routes.ts';
export {
  type Auditor,
  type AuditRecord,
  type AuditTarget,
  type AuditWho,
  auditWho,
  createAuditor,
  recordAudit,
} from './audit.service.ts';
