// Contacts, as far as the automation builder reads them (its contact pickers): the list with
// /v1's search. TODO(issue 24): the contacts screens' reads and writes join this file when that
// folder moves to the kit.
import { queryOptions } from '@tanstack/react-query';
import type { Contact } from '@server/api/contacts/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type { Contact };

export const contactKeys = resourceKeys('contacts');

/** Filters: q (words that begin a name or the email), lifecycle_stage, limit. Most recently changed first. */
export const contactListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: contactKeys.list(filters, cursor),
    queryFn: () => api.get<Page<Contact>>(`/hub/api/contacts${qs({ ...filters, cursor })}`),
  });

/** The search as the server takes it: words with a letter or a digit, or none. */
export const contactSearch = (text: string): string => (/[\p{L}\p{N}]/u.test(text) ? text.trim() : '');

/** A contact in words: their name, else their email. */
export function contactName(c: Pick<Contact, 'id' | 'email' | 'first_name' | 'last_name'>): string {
  return [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || c.id;
}
