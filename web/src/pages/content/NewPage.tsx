// Create a page in a project from Markdown or HTML, with a live preview of the sanitised result:
// the preview endpoint runs the same converter and sanitiser the page will be saved with, once
// the typing pauses. The saved page opens on its own URL.
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Field, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { PageHeader } from '../../components/PageHeader';
import { pagePreviewQuery, useCreatePage } from '../../data/projects';
import { useDebounced } from '../../lib/useDebounced';
import { PageFrame } from './shared';
import './content.css';

type Format = 'markdown' | 'html';
const FORMATS = [
  ['markdown', 'Markdown'],
  ['html', 'HTML'],
] as const;

export default function NewPage() {
  const { projectId = '' } = useParams();
  const navigate = useNavigate();
  const sourceId = useId();
  const [title, setTitle] = useState('');
  const [format, setFormat] = useState<Format>('markdown');
  const [source, setSource] = useState('');
  // One string, so the debounced value only changes when the text or the format does.
  const settledKey = useDebounced(JSON.stringify([format, source]), 400);
  const settled = JSON.parse(settledKey) as [Format, string];
  // The last preview stays on screen (marked busy) while the next one is prepared.
  const preview = useQuery({ ...pagePreviewQuery(settled[0], settled[1]), placeholderData: (previous) => previous });
  const create = useCreatePage(projectId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ title, [format]: source }, { onSuccess: (item) => void navigate(`/items/${item.id}`) });
  };
  const stale = settled[1] !== source || settled[0] !== format || preview.isFetching;
  return (
    <>
      <p>
        <Link to={`/content/${projectId}`}>← Project</Link>
      </p>
      <PageHeader title="New page" />
      <form onSubmit={submit} className="content-editor">
        <div className="content-editor-source">
          <Field label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={500} />
          <Select label="Format" value={format} onChange={(v) => setFormat(v as Format)} options={FORMATS} />
          <div className="field">
            <label htmlFor={sourceId}>{format === 'markdown' ? 'Markdown' : 'HTML'}</label>
            <textarea id={sourceId} value={source} onChange={(e) => setSource(e.target.value)} rows={18} spellCheck={false} />
          </div>
          <ErrorNotice error={create.error} />
          <div className="actions">
            <button type="submit" disabled={create.isPending || title.trim() === ''}>
              {create.isPending ? 'Creating…' : 'Create page'}
            </button>
            <Link className="button button-secondary" to={`/content/${projectId}`}>
              Cancel
            </Link>
          </div>
        </div>
        <section className="content-editor-preview" aria-labelledby={`${sourceId}-preview`} aria-busy={stale && source.trim() !== ''}>
          <h2 id={`${sourceId}-preview`}>Preview</h2>
          <p className="hint">As the page will be saved: sanitised, shown without scripts.</p>
          <ErrorNotice error={preview.error} />
          {source.trim() === '' ? (
            <p className="state state-empty">Type the page to see it here.</p>
          ) : preview.data ? (
            <PageFrame html={preview.data.html} title="Preview of the page" />
          ) : (
            <p className="state">Preparing the preview…</p>
          )}
        </section>
      </form>
    </>
  );
}
