// Messages: every email, SMS and team message of the account (the Messages screen; a contact's
// timeline shows its own), one message's page (the body and whole recipient for owners and
// admins), and Re-send (owners and admins) of one that was not delivered.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { HubMessage, HubMessageDetail, MessageAttempt, ResendBody } from '@server/hub/messages/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type { HubMessage, HubMessageDetail, MessageAttempt };

export const messageKeys = resourceKeys('messages');

/** Filters: status, channel, contact_id, automation_id. Newest first. */
export const messageListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: messageKeys.list(filters, cursor),
    queryFn: () => api.get<Page<HubMessage>>(`/hub/api/messages${qs({ ...filters, cursor })}`),
    // Messages move from queued to sent on their own: keep the list current while it is open.
    refetchInterval: 10_000,
  });

/** One message: read again every 10 seconds while it is not settled (queued or sending). */
export const messageQuery = (id: string) =>
  queryOptions({
    queryKey: messageKeys.detail(id),
    queryFn: () => api.get<HubMessageDetail>(`/hub/api/messages/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !['queued', 'sending'].includes(query.state.data.status) ? false : 10_000),
  });

/**
 * Re-send: a new message naming this one (answered whole, so its page opens at once); force for
 * one whose delivery is unknown. The original now names its re-send; lists gain the new message.
 */
export function useResendMessage(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ResendBody) => api.post<HubMessageDetail>(`/hub/api/messages/${encodeURIComponent(id)}/resend`, body),
    onSuccess: (sent) => {
      client.setQueryData(messageKeys.detail(sent.id), sent);
      void client.invalidateQueries({ queryKey: messageKeys.detail(id) });
      void client.invalidateQueries({ queryKey: messageKeys.lists() });
    },
  });
}
