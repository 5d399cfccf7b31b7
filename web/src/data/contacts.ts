// Contacts: the account's live contacts (the Contacts screen, the automation builder's pickers),
// one contact with its automation runs and messages, the writes a person makes on one (create,
// edit, erase), and how a contact is named.
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '@server/api/contacts/schemas';
import type { HubContactDetail, TimelineEntry } from '@server/hub/contacts/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';
import { messageKeys } from './messages';

export type { Contact, HubContactDetail, TimelineEntry };

export const contactKeys = resourceKeys('contacts');

/** Filters: q (words that begin a name or the email), lifecycle_stage, limit. Most recently changed first. */
export const contactListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: contactKeys.list(filters, cursor),
    queryFn: () => api.get<Page<Contact>>(`/hub/api/contacts${qs({ ...filters, cursor })}`),
  });

/** The search as the server takes it: words with a letter or a digit, or none. */
export const contactSearch = (text: string): string => (/[\p{L}\p{N}]/u.test(text) ? text.trim() : '');

/** The name a person is shown by: first and last name, else the email, else the id. */
export function contactName(c: Pick<Contact, 'id' | 'email' | 'first_name' | 'last_name'>): string {
  const name = [c.first_name, c.last_name].filter((x) => x && x.trim()).join(' ');
  return name || c.email || c.id;
}

/** One contact with its newest automation runs and messages (one request). */
export const contactQuery = (id: string) =>
  queryOptions({
    queryKey: contactKeys.detail(id),
    queryFn: () => api.get<HubContactDetail>(`/hub/api/contacts/${encodeURIComponent(id)}`),
  });

/**
 * A contact's timeline (runs, messages, changes), newest first, a page at a time: "Show more"
 * fetches the next. Under the contact's detail key, so an edit (contactKeys.all) reads it again.
 */
export const contactTimelineQuery = (id: string, limit = 20) =>
  infiniteQueryOptions({
    queryKey: [...contactKeys.detail(id), 'timeline'] as const,
    queryFn: ({ pageParam }) => api.get<Page<TimelineEntry>>(`/hub/api/contacts/${encodeURIComponent(id)}/timeline${qs({ limit, cursor: pageParam })}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

/** "New contact": the caller opens the answer's page. */
export function useCreateContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, unknown>) => api.post<Contact>('/hub/api/contacts', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

/** Only the fields that changed are sent (PATCH). */
export function useUpdateContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Record<string, unknown>) => api.patch<Contact>(`/hub/api/contacts/${id}`, changes),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

/** Erasure, confirmed by the email (or the id) typed by the user. */
export function useEraseContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (confirm: string) => api.post(`/hub/api/contacts/${id}/erase`, { confirm }),
    onSuccess: () => {
      // Dropped, not just marked stale: a stale list would show the erased contact for a moment
      // before its refetch; a dropped one loads afresh.
      client.removeQueries({ queryKey: contactKeys.all });
      void client.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}
