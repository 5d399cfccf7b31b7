// The audit log: who changed what and when, newest first (owners and admins).
import { queryOptions } from '@tanstack/react-query';
import type { AuditEntry } from '@server/hub/audit/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type { AuditEntry };

export const auditKeys = resourceKeys('audit');

/** Filters: action, actor (a user's id or "operator"). Fifty entries a page. */
export const auditListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: auditKeys.list(filters, cursor),
    queryFn: () => api.get<Page<AuditEntry>>(`/hub/api/audit${qs({ ...filters, cursor, limit: 50 })}`),
  });
