// The Runs screen (the hub's home): every run of the account, newest first, filtered by workflow,
// status and trigger. The filters live in the URL query, so a filtered list can be bookmarked
// and survives a reload; changing one starts again at the first page.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Pager, Select, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { RUN_STATUSES, RUN_TRIGGERS, RunsTable, triggerWord, type Page, type RunInList } from './model';
import type { WorkflowInList } from '../workflows/model';
import './runs.css';

const FILTERS = ['workflow_id', 'status', 'trigger'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function RunsList({ filters }: { filters: Filters }) {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['hub', 'runs', filters, pager.cursor],
    queryFn: () => api.get<Page<RunInList>>(`/hub/api/runs${qs({ ...filters, cursor: pager.cursor })}`),
    // Runs move on their own: keep the list current while it is open.
    refetchInterval: 5_000,
  });
  return (
    <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty={pager.page === 1 ? 'No runs match. Start one from a workflow with "Run now".' : 'No more runs.'}>
      {(d) => (
        <>
          <RunsTable runs={d.data} caption="Runs, newest first" />
          <Pager pager={pager} nextCursor={d.next_cursor} label="Runs" />
        </>
      )}
    </QueryState>
  );
}

export default function RunsPage() {
  const [params, setParams] = useSearchParams();
  const filters: Filters = { workflow_id: params.get('workflow_id') ?? '', status: params.get('status') ?? '', trigger: params.get('trigger') ?? '' };
  // The workflow filter's choices (the account's workflows, most recently changed first).
  const workflows = useQuery({
    queryKey: ['hub', 'workflows', 'choices'],
    queryFn: () => api.get<Page<WorkflowInList>>('/hub/api/workflows?limit=100'),
    staleTime: 60_000,
  });
  const set = (name: keyof Filters) => (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const wfOptions: [string, string][] = [['', 'All workflows'], ...(workflows.data?.data ?? []).map((w): [string, string] => [w.id, w.name])];
  if (filters.workflow_id && !wfOptions.some(([id]) => id === filters.workflow_id)) wfOptions.push([filters.workflow_id, 'This workflow']);
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      <form className="filters card" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <Select label="Workflow" value={filters.workflow_id} onChange={set('workflow_id')} options={wfOptions} />
        <Select label="Status" value={filters.status} onChange={set('status')} options={[['', 'Any status'], ...RUN_STATUSES.map((s): [string, string] => [s, s.replace(/_/g, ' ')])]} />
        <Select label="Trigger" value={filters.trigger} onChange={set('trigger')} options={[['', 'Any trigger'], ...RUN_TRIGGERS.map((t): [string, string] => [t, triggerWord(t)])]} />
        {(filters.workflow_id || filters.status || filters.trigger) && (
          <button type="button" className="button-secondary" onClick={() => setParams(new URLSearchParams())}>
            Clear filters
          </button>
        )}
      </form>
      <RunsList key={JSON.stringify(filters)} filters={filters} />
    </section>
  );
}
