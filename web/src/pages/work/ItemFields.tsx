// The editable fields of a work item, shared by "New item" and an item's page. The form keeps text
// as typed; toInput turns it into the hub's fields (blank dates and points → null, labels split on
// commas). A refusal naming a field is shown on that field.
import { useId } from 'react';
import { Field, Select } from '../../components/controls';
import { fieldError } from '../../lib/error-words';
import type { CreateItemBody, HubWorkItem } from '../../data/work';
import { WM_LIMITS, WM_STATUSES, WM_TYPES } from '@domain/work-item';
import { statusWord } from './words';

export interface ItemDraft {
  type: string;
  title: string;
  status: string;
  labels: string;
  start_date: string;
  due_date: string;
  points: string;
  description: string;
}

export const EMPTY_ITEM: ItemDraft = { type: 'task', title: '', status: 'todo', labels: '', start_date: '', due_date: '', points: '', description: '' };

export function draftOfItem(i: HubWorkItem): ItemDraft {
  return {
    type: i.type,
    title: i.title,
    status: i.status,
    labels: i.labels.join(', '),
    start_date: i.start_date ?? '',
    due_date: i.due_date ?? '',
    points: i.points === null ? '' : String(i.points),
    description: i.description,
  };
}

/** The draft as the hub takes it. A points value that is not a whole number is sent as typed, for the server to refuse by name. */
export function itemInput(d: ItemDraft): CreateItemBody {
  const points = d.points.trim();
  return {
    type: d.type as CreateItemBody['type'],
    title: d.title.trim(),
    status: d.status as NonNullable<CreateItemBody['status']>,
    labels: d.labels.split(',').map((l) => l.trim()).filter(Boolean),
    start_date: d.start_date || null,
    due_date: d.due_date || null,
    points: points === '' ? null : (Number(points)),
    description: d.description,
  };
}

const TYPE_OPTIONS = WM_TYPES.map((t) => [t, t.charAt(0).toUpperCase() + t.slice(1)] as const);
const STATUS_OPTIONS = WM_STATUSES.map((s) => [s, statusWord(s)] as const);

export function ItemFields({ draft, onChange, error }: { draft: ItemDraft; onChange: (d: ItemDraft) => void; error: unknown }) {
  const id = useId();
  const set = (k: keyof ItemDraft) => (v: string) => onChange({ ...draft, [k]: v });
  const bad = (f: string) => fieldError(error, f);
  const descriptionError = bad('description');
  return (
    <div className="work-fields">
      <Field label="Title" value={draft.title} onChange={(e) => set('title')(e.target.value)} required maxLength={WM_LIMITS.title} error={bad('title')} />
      <div className="work-row">
        <Select label="Type" value={draft.type} onChange={set('type')} options={TYPE_OPTIONS} />
        <Select label="Status" value={draft.status} onChange={set('status')} options={STATUS_OPTIONS} />
        <Field label="Points" inputMode="numeric" value={draft.points} onChange={(e) => set('points')(e.target.value)} error={bad('points')} />
      </div>
      <div className="work-row">
        <Field label="Start date" type="date" value={draft.start_date} onChange={(e) => set('start_date')(e.target.value)} error={bad('start_date')} />
        <Field label="Due date" type="date" value={draft.due_date} onChange={(e) => set('due_date')(e.target.value)} error={bad('due_date')} />
      </div>
      <Field label="Labels" hint="Separated by commas." value={draft.labels} onChange={(e) => set('labels')(e.target.value)} error={bad('labels')} />
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={6}
          value={draft.description}
          maxLength={WM_LIMITS.description}
          aria-describedby={`${id}-description-hint${descriptionError ? ` ${id}-description-error` : ''}`}
          {...(descriptionError ? { 'aria-invalid': true } : {})}
          onChange={(e) => set('description')(e.target.value)}
        />
        <small id={`${id}-description-hint`} className="hint">
          Markdown: **bold**, lists, links.
        </small>
        {descriptionError && (
          <small id={`${id}-description-error`} className="field-error">
            {descriptionError}
          </small>
        )}
      </div>
    </div>
  );
}
