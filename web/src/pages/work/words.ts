// Work management in words a person reads: an item's status and a history entry's field.
import type { WM_STATUSES } from '@domain/work-item';

type Status = (typeof WM_STATUSES)[number];

const STATUS_WORDS: Record<Status, string> = { todo: 'To do', in_progress: 'In progress', in_review: 'In review', done: 'Done' };

export function statusWord(s: string): string {
  return Object.hasOwn(STATUS_WORDS, s) ? STATUS_WORDS[s as Status] : s.replace(/_/g, ' ');
}

const FIELD_WORDS: Record<string, string> = {
  start_date: 'start date',
  due_date: 'due date',
  epic: 'epic',
  sprint: 'sprint',
  linked_documents: 'linked documents',
};

export function fieldWord(f: string): string {
  return FIELD_WORDS[f] ?? f.replace(/_/g, ' ');
}
