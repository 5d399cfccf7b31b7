// One content item: its kind's facts; a page's sanitised HTML in a sandboxed iframe, and the text
// it was made from.
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Time } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { itemQuery, type Item } from '../../data/projects';
import { PageFrame } from './shared';

type Facts = [string, ReactNode][];

const fileFacts = (f: { filename: string | null; content_type: string | null; size_bytes: number | null }): Facts => [
  ...(f.filename ? [['File', <code>{f.filename}</code>] as [string, ReactNode]] : []),
  ...(f.content_type ? [['Type', f.content_type] as [string, ReactNode]] : []),
  ...(f.size_bytes != null ? [['Size', `${f.size_bytes.toLocaleString()} bytes`] as [string, ReactNode]] : []),
];

/** The fields of the item's own kind (the server's Item is a union told apart by kind). */
function kindFacts(item: Item): Facts {
  switch (item.kind) {
    case 'link':
      return [['URL', <code>{item.url}</code>]];
    case 'file':
      return fileFacts(item);
    case 'dataset':
      return [
        ['Rows', String(item.row_count)],
        ['Columns', item.columns.join(', ') || '—'],
      ];
    case 'image':
      return [...fileFacts(item), ['Size in pixels', `${item.width} × ${item.height}`], ['Alternative text', item.alt || '—']];
    case 'page':
      return [];
  }
}

function ItemFacts({ item }: { item: Item }) {
  const rows: Facts = [['Kind', item.kind], ['Created', <Time iso={item.created_at} />], ['Updated', <Time iso={item.updated_at} />], ...kindFacts(item)];
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export default function ItemPage() {
  const { id = '' } = useParams();
  const q = useQuery(itemQuery(id));
  return (
    <QueryState q={q}>
      {(item) => (
        <>
          <p>
            <Link to={`/content/${item.project_id}`}>← Project</Link>
          </p>
          <PageHeader title={item.title} />
          <ItemFacts item={item} />
          {item.kind === 'page' && (
            <>
              <h2>Page</h2>
              <PageFrame html={item.html} title={`The page ${item.title}`} />
              <details>
                <summary>Source text</summary>
                <pre className="output">{item.text}</pre>
              </details>
            </>
          )}
        </>
      )}
    </QueryState>
  );
}
