// A contact's timeline (issue 25, item 4): its automation runs, the messages they sent and the
// changes recorded about it, newest first, in the server's words; each run and message opens its
// page. Twenty at a time, "Show more" for the next (data/contacts.ts contactTimelineQuery).
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { Empty, ErrorNotice, Loading } from '../../components/states';
import { contactTimelineQuery, type TimelineEntry } from '../../data/contacts';

const KIND_WORDS: Record<TimelineEntry['kind'], string> = { run: 'Run', message: 'Message', change: 'Change' };

/** A run's and a message's page; a change has none of its own. */
const pageOf = (e: TimelineEntry) => (e.kind === 'run' ? `/automation-runs/${e.id}` : e.kind === 'message' ? `/messages/${e.id}` : null);

function Entry({ e }: { e: TimelineEntry }) {
  const to = pageOf(e);
  return (
    <li className={`contacts-timeline-${e.kind}`}>
      <div className="contacts-timeline-head">
        <span className="contacts-timeline-kind">{KIND_WORDS[e.kind]}</span>
        <Time iso={e.at} />
      </div>
      <p className="contacts-timeline-text">
        {to ? <Link to={to}>{e.text}</Link> : e.text}
        {e.test && <span className="muted"> (test)</span>}{' '}
        {e.status && <StatusBadge status={e.status} label={e.status_label ?? undefined} />}
      </p>
    </li>
  );
}

export function ContactTimeline({ contactId }: { contactId: string }) {
  const q = useInfiniteQuery(contactTimelineQuery(contactId));
  if (q.isPending) return <Loading what="Loading the timeline" />;
  if (q.error && !q.data) return <ErrorNotice error={q.error} />;
  const entries = q.data?.pages.flatMap((p) => p.data) ?? [];
  if (!entries.length) return <Empty>Nothing has happened to this contact yet.</Empty>;
  return (
    <>
      <ol className="contacts-timeline" aria-label="Timeline, newest first">
        {entries.map((e) => (
          <Entry key={`${e.kind}-${e.id}`} e={e} />
        ))}
      </ol>
      {q.error && <ErrorNotice error={q.error} />}
      {q.hasNextPage && (
        <button type="button" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}
