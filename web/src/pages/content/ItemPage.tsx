// One content item: its kind's facts; a page's sanitised HTML in a sandboxed iframe, and the text
// it was made from.
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Time } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api } from '../../lib/api';
import { PageFrame, type Item } from './shared';
import { PageHeader } from '../../components/PageHeader';

function Facts({ item }: { item: Item }) {
  const rows: [string, ReactNode][] = [
    ['Kind', item.kind],
    ['Created', <Time iso={item.created_at} />],
    ['Updated', <Time iso={item.updated_at} />],
  ];
  if (item.kind === 'link') rows.push(['URL', <code>{item.url}</code>]);
  if (item.filename) rows.push(['File', <code>{item.filename}</code>]);
  if (item.content_type) rows.push(['Type', item.content_type]);
  if (item.size_bytes != null) rows.push(['Size', `${item.size_bytes.toLocaleString()} bytes`]);
  if (item.kind === 'dataset') rows.push(['Rows', String(item.row_count)], ['Columns', (item.columns ?? []).join(', ') || '—']);
  if (item.kind === 'image') rows.push(['Size in pixels', `${item.width} × ${item.height}`], ['Alternative text', item.alt || '—']);
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
  const q = useQuery({ queryKey: ['content-item', id], queryFn: () => api.get<Item>(`/hub/api/items/${id}`) });
  return (
    <QueryState q={q}>
      {(item) => (
        <>
          <p>
            <Link to={`/content/${item.project_id}`}>← Project</Link>
          </p>
          <PageHeader title={item.title} />
          <Facts item={item} />
          {item.kind === 'page' && (
            <>
              <h2>Page</h2>
              <PageFrame html={item.html ?? ''} title={`The page ${item.title}`} />
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
