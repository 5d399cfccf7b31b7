// The Runs entry of the navigation with how many runs await approval: a badge people see, and
// words a screen reader says ("Runs, 2 awaiting approval"). The count is polled every 30 s
// (data/runs.ts runsAwaitingQuery) and refreshed after any move on a run; none waiting, no badge.
import { useQuery } from '@tanstack/react-query';
import { runsAwaitingQuery } from '../../data/runs';

export function RunsNavLabel({ label }: { label: string }) {
  const n = useQuery(runsAwaitingQuery()).data?.awaiting_approval ?? 0;
  if (n === 0) return <>{label}</>;
  return (
    <>
      {label}
      <span className="visually-hidden">, {n} awaiting approval</span>
      <span className="nav-badge" aria-hidden="true">
        {n}
      </span>
    </>
  );
}
