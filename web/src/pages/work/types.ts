// The work-management shapes the hub's API answers (the /v1 WorkProject, WorkItem and Sprint).
export interface WorkProject {
  project_id: string;
  name: string;
  key_prefix: string;
  previous_prefixes: string[];
}

import { WM_STATUSES, WM_TYPES } from '@domain/work-item';
export { WM_STATUSES, WM_TYPES };

export interface WorkItem {
  key: string;
  type: (typeof WM_TYPES)[number];
  title: string;
  status: (typeof WM_STATUSES)[number];
  sprint_id: string | null;
  epic_key: string | null;
  labels: string[];
  assignee: { id: string; name: string } | null;
  start_date: string | null;
  due_date: string | null;
  points: number | null;
}

export interface Sprint {
  id: string;
  name: string;
  state: 'planned' | 'active' | 'finished';
  start_date: string | null;
  end_date: string | null;
  totals: { items: number; done: number; points: number; points_done: number };
  review: Record<string, unknown> | null;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}
