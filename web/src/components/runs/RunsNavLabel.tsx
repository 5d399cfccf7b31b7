// The Runs entry of the navigation with how many runs await approval: a badge people see, and
// words a screen reader says ("Runs, 2 awaiting approval"). The count is polled every 30 s
// (data/runs.ts runsAwaitingQuery) and refreshed after any move on a run; none waiting, no badge.
import { useQuery } from '@tanstack/react-query';
import { runsAwaitingQuery } from '../../data/runs';

export function RunsNavLabel({ label }: { label: string }) {
  const n = useQuery(runsAwaitingQuery()).data?.awaiting_approval ?? 0;
  if (n === 0) return <>{label}</>;
  // One hidden sentence is the link's whole name: pieces side by side could be read with a
  // stray space or the badge's bare number.
  return (
    <>
      <span aria-hidden="true">
        {label}
        <span className="nav-badge">{n}</span>
      </span>
      <span className="visually-hidden">
        {label}, {n} awaiting approval
      </span>
    </>
  );
}
