// Work management: SQL, read-only (spec rule 9: reading never opens the area, so nothing here
// writes). Every query filters by account_id; a project "has the area" when wm_prefix is not null.
// Dates are rendered by to_char: the two adapters parse SQL `date` differently (local vs UTC
// midnight), and text in a fixed format sidesteps both.
// A deleted item (deleted_at set) reads as unknown everywhere here, and counts in no sprint's
// totals; a deleted comment is left out of the history (migration 0035 says why rows stay).
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import type { ItemKind } from '../../domain/project.js';
import type { HistoryKind, SprintState, WmStatus, WmType } from '../../domain/work-item.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

export interface WmProjectRow {
  id: string;
  name: string;
  wm_prefix: string;
  wm_previous_prefixes: string[];
  created_at: Date;
}

const PROJECT = `select p.id, p.name, p.wm_prefix, p.wm_previous_prefixes, p.created_at from projects p`;

/**
 * Case folding for "any case" search, the same SQL on both sides: lower(), and the Greek final
 * sigma as the ordinary one (lower('Σ') is 'σ' in every position, while a query may write 'ς').
 */
const FOLD = (expr: string) => `translate(lower(${expr}), 'ς', 'σ')`;

const PROJECT_ORDER = new KeysetOrder('p.created_at', 'p.id', 'desc');

/** Projects that opened the area, newest first (projects_created index). */
export async function listWmProjects(db: Queryable, accountId: string, page: KeysetPage): Promise<WmProjectRow[]> {
  const w = new ListSql([accountId], ['p.account_id = $1', 'p.wm_prefix is not null']).after(PROJECT_ORDER, page);
  return db.query<WmProjectRow>(`${PROJECT} where ${w.sql} ${w.tail(PROJECT_ORDER, page)}`, w.params);
}

/**
 * The project if it opened the area; null for an unknown project, another account's, or one
 * without the area. `lock`: the row is held until the transaction ends (a prefix rename).
 */
export async function getWmProject(db: Queryable, accountId: string, projectId: string, lock = false): Promise<WmProjectRow | null> {
  const rows = await db.query<WmProjectRow>(
    `${PROJECT} where p.account_id = $1 and p.id = $2 and p.wm_prefix is not null ${lock ? 'for no key update' : ''}`,
    [accountId, projectId],
  );
  return rows[0] ?? null;
}

export interface WmItemRow {
  id: string;
  number: number;
  type: WmType;
  title: string;
  status: WmStatus;
  sprint_id: string | null;
  epic_number: number | null;
  labels: string[];
  assignee: string | null;
  assignee_name: string | null;
  start_date: string | null;
  due_date: string | null;
  points: number | null;
  /** The item's place in the backlog (src/lib/rank.ts); the hub's order=rank. */
  rank: string;
  created_at: Date;
  updated_at: Date;
}

export interface WmItemDetailRow extends WmItemRow {
  description: string;
  linked_documents: string[];
}

// A person is named by their name, else their email (users made without a name have '').
const PERSON = (u: string) => `coalesce(nullif(trim(${u}.name), ''), ${u}.email)`;

const ITEM_COLUMNS = `
  i.id, i.number, i.type, i.title, i.status, i.sprint_id, i.epic_number, i.labels,
  i.assignee, ${PERSON('u')} as assignee_name,
  to_char(i.start_date, 'YYYY-MM-DD') as start_date, to_char(i.due_date, 'YYYY-MM-DD') as due_date,
  i.points, i.rank, i.created_at, i.updated_at`;
const ITEM_FROM = `
  from wm_items i
  left join users u on u.account_id = i.account_id and u.id = i.assignee`;

export interface WmItemFilters {
  status?: string;
  type?: string;
  sprintId?: string;
  /** A user id, or 'none' for unassigned items. */
  assignee?: string;
  /** The epic's number in this project (its key resolved against the project's prefixes). */
  epicNumber?: number;
  label?: string;
  /** Lower-cased words; every one must appear in the title or the description. */
  words?: string[];
  changedSince?: Date;
  /** key (number; /v1's only order) or rank (the hub's backlog). */
  order?: 'key' | 'rank';
}

const ITEM_ORDER = new KeysetOrder('i.number', null, 'asc');
const RANK_ORDER = new KeysetOrder('i.rank', null, 'asc');
// A rank page's cursor is its last item's number (the cursor codec carries numbers): the next page
// starts after that item's rank, wherever it stands now (ranks are unique in a project).
const afterRankOf = (p: string) => `i.rank > (select r.rank from wm_items r where r.account_id = $1 and r.project_id = $2 and r.number = ${p})`;
// strpos, not ilike: a word's % or _ is matched as itself, with no escaping to get wrong.
const containsWord = (p: string) => `strpos(${FOLD("i.title || ' ' || i.description")}, ${FOLD(`${p}::text`)}) > 0`;
const hasLabel = (p: string) => `${p}::text = any (i.labels)`;

/** A project's items in key order (number ascending) or rank order, after the cursor's item. */
export async function listWmItems(db: Queryable, accountId: string, projectId: string, f: WmItemFilters, page: KeysetPage): Promise<WmItemRow[]> {
  const w = new ListSql([accountId, projectId], ['i.account_id = $1', 'i.project_id = $2', 'i.deleted_at is null'])
    .eq('i.status', f.status || undefined)
    .eq('i.type', f.type || undefined)
    .eq('i.sprint_id', f.sprintId || undefined);
  if (f.assignee === 'none') w.literal('i.assignee is null');
  else w.eq('i.assignee', f.assignee || undefined);
  w.eq('i.epic_number', f.epicNumber).where(f.label, hasLabel);
  for (const word of f.words ?? []) w.where(word, containsWord);
  w.atLeast('i.updated_at', f.changedSince || undefined);
  if (f.order === 'rank') w.where(page.after?.sort, afterRankOf);
  else w.after(ITEM_ORDER, page);
  const order = f.order === 'rank' ? RANK_ORDER : ITEM_ORDER;
  return db.query<WmItemRow>(`select ${ITEM_COLUMNS} ${ITEM_FROM} where ${w.sql} ${w.tail(order, page)}`, w.params);
}

/**
 * A live item of the project by number. `lock`: the item's row is held until the transaction ends,
 * so edits, comments and a delete of one item take their turns (and their history seqs) in order.
 */
export async function getWmItem(db: Queryable, accountId: string, projectId: string, number: number, lock = false): Promise<WmItemDetailRow | null> {
  const rows = await db.query<WmItemDetailRow>(
    `select ${ITEM_COLUMNS}, i.description, i.linked_documents ${ITEM_FROM}
      where i.account_id = $1 and i.project_id = $2 and i.number = $3 and i.deleted_at is null
      ${lock ? 'for no key update of i' : ''}`,
    [accountId, projectId, number],
  );
  return rows[0] ?? null;
}

/**
 * The rank next to `rank` in the project on one side, `except` one item (the one moving); null at
 * the end. Deleted items count: they keep their ranks, and the unique index with them.
 */
export async function rankNeighbour(db: Queryable, accountId: string, projectId: string, rank: string, side: 'below' | 'above', except: string): Promise<string | null> {
  const [cmp, dir] = side === 'below' ? ['<', 'desc'] : ['>', 'asc'];
  const rows = await db.query<{ rank: string }>(
    `select rank from wm_items where account_id = $1 and project_id = $2 and rank ${cmp} $3 and id <> $4 order by rank ${dir} limit 1`,
    [accountId, projectId, rank, except],
  );
  return rows[0]?.rank ?? null;
}

export interface LinkedDocumentRow {
  id: string;
  kind: ItemKind;
  title: string;
}

/** The linked content items that still exist in the account, in the order they were linked. */
export async function getLinkedDocuments(db: Queryable, accountId: string, ids: string[]): Promise<LinkedDocumentRow[]> {
  if (ids.length === 0) return [];
  return db.query<LinkedDocumentRow>(
    `select c.id, c.kind, c.title
       from unnest($2::uuid[]) with ordinality as l (id, ord)
       join content_items c on c.account_id = $1 and c.id = l.id
      order by l.ord`,
    [accountId, ids],
  );
}

export interface HistoryRow {
  /** The entry's place in the item's history: what the hub names a comment by. */
  seq: number;
  at: Date;
  /** When its author last edited a comment; null for a change, or a comment never edited. */
  edited_at: Date | null;
  actor: string | null;
  actor_name: string | null;
  kind: HistoryKind;
  text: string | null;
  field: string | null;
  from_value: string | null;
  to_value: string | null;
}

/** The whole history of an item, oldest first (seq breaks ties between entries of one moment). */
export async function getHistory(db: Queryable, accountId: string, itemId: string): Promise<HistoryRow[]> {
  return db.query<HistoryRow>(
    `select h.seq, h.at, h.edited_at, u.id as actor, ${PERSON('u')} as actor_name, h.kind, h.text, h.field, h.from_value, h.to_value
       from wm_item_history h
       left join users u on u.account_id = h.account_id and u.id = h.actor
      where h.account_id = $1 and h.item_id = $2 and h.deleted_at is null
      order by h.at, h.seq`,
    [accountId, itemId],
  );
}

export interface SprintRow {
  id: string;
  name: string;
  goal: string;
  state: SprintState;
  start_date: string | null;
  end_date: string | null;
  review: Record<string, unknown> | null;
  created_at: Date;
  items: number;
  done: number;
  points: number;
  points_done: number;
}

const SPRINT_ORDER = new KeysetOrder('s.created_at', 's.id', 'desc');

/**
 * Sprints with their totals: the totals come from the same query (one aggregate per sprint over
 * the wm_items_sprint index), never a round trip per sprint. `from` selects the sprints.
 */
const sprintsWithTotals = (from: string) => `
  select s.id, s.name, s.goal, s.state, to_char(s.start_date, 'YYYY-MM-DD') as start_date,
         to_char(s.end_date, 'YYYY-MM-DD') as end_date, s.review, s.created_at,
         t.items, t.done, t.points, t.points_done
    from (${from}) s
    cross join lateral (
      select count(*)::int as items,
             (count(*) filter (where i.status = 'done'))::int as done,
             coalesce(sum(i.points), 0)::bigint as points,
             coalesce(sum(i.points) filter (where i.status = 'done'), 0)::bigint as points_done
        from wm_items i
       where i.account_id = s.account_id and i.sprint_id = s.id and i.deleted_at is null
    ) t`;

/** A project's sprints, newest first, each with its totals. */
export async function listSprints(db: Queryable, accountId: string, projectId: string, page: KeysetPage): Promise<SprintRow[]> {
  const w = new ListSql([accountId, projectId], ['s.account_id = $1', 's.project_id = $2']).after(SPRINT_ORDER, page);
  return db.query<SprintRow>(
    `${sprintsWithTotals(`select * from wm_sprints s where ${w.sql} ${w.tail(SPRINT_ORDER, page)}`)} ${SPRINT_ORDER.orderClause}`,
    w.params,
  );
}

/** One sprint of the project with its totals; null for another project's or account's, or an unknown id. */
export async function getSprint(db: Queryable, accountId: string, projectId: string, sprintId: string): Promise<SprintRow | null> {
  const rows = await db.query<SprintRow>(
    sprintsWithTotals('select * from wm_sprints s where s.account_id = $1 and s.project_id = $2 and s.id = $3'),
    [accountId, projectId, sprintId],
  );
  return rows[0] ?? null;
}

/** The project's active sprint, if any (callers hold the project's row lock: see sprints.ts). */
export async function activeSprintId(db: Queryable, accountId: string, projectId: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    "select id from wm_sprints where account_id = $1 and project_id = $2 and state = 'active' limit 1",
    [accountId, projectId],
  );
  return rows[0]?.id ?? null;
}

export interface SprintItemRow {
  id: string;
  number: number;
  status: WmStatus;
  points: number | null;
}

/** The live items of a sprint in key order, their rows locked until the transaction ends (a finish moves them). */
export async function lockSprintItems(db: Queryable, accountId: string, sprintId: string): Promise<SprintItemRow[]> {
  return db.query<SprintItemRow>(
    `select id, number, status, points from wm_items
      where account_id = $1 and sprint_id = $2 and deleted_at is null
      order by number
      for no key update`,
    [accountId, sprintId],
  );
}

/** Whether the sprint is one of the project's (another project's or account's sprint is not). */
export async function sprintInProject(db: Queryable, accountId: string, projectId: string, sprintId: string): Promise<boolean> {
  const rows = await db.query('select 1 from wm_sprints where account_id = $1 and id = $2 and project_id = $3', [accountId, sprintId, projectId]);
  return rows.length > 0;
}

/** Whether a live item of the project names this epic (by number): an epic with children keeps its type. */
export async function epicHasChildren(db: Queryable, accountId: string, projectId: string, epicNumber: number): Promise<boolean> {
  const rows = await db.query(
    'select 1 from wm_items where account_id = $1 and project_id = $2 and epic_number = $3 and deleted_at is null limit 1',
    [accountId, projectId, epicNumber],
  );
  return rows.length > 0;
}
