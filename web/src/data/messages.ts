// Messages: every email, SMS and team message of the account (the Messages screen; a contact's
// page shows its newest with the contact).
import { queryOptions } from '@tanstack/react-query';
import type { HubMessage } from '@server/hub/messages/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type { HubMessage };

export const messageKeys = resourceKeys('messages');

/** Filters: status, channel, contact_id, automation_id. Newest first. */
export const messageListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: messageKeys.list(filters, cursor),
    queryFn: () => api.get<Page<HubMessage>>(`/hub/api/messages${qs({ ...filters, cursor })}`),
    // Messages move from queued to sent on their own: keep the list current while it is open.
    refetchInterval: 10_000,
  });
