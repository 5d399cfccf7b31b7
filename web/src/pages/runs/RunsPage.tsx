// The Runs screen (the hub's home): every run of the account, newest first, filtered by workflow,
// status and trigger. The filters live in the URL query (useListQuery), so a filtered list can be
// bookmarked and survives a reload; changing one starts again at the first page.
import { Select } from '../../components/controls';
import { ClearFilters, ListTable, SearchPicker, useListQuery } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { runColumns, triggerWord } from '../../components/runs/RunsTable';
import { runListQuery } from '../../data/runs';
import { workflowListQuery } from '../../data/workflows';
import { RUN_STATUSES, RUN_TRIGGERS } from '@domain/workflow';

const COLUMNS = runColumns();

export default function RunsPage() {
  const list = useListQuery({ filters: ['workflow_id', 'status', 'trigger'], query: runListQuery });
  const { filters, setFilter } = list;
  return (
    <section aria-labelledby="runs-title">
      <PageHeader id="runs-title" title="Runs" />
      <form className="filters card" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        {/* The account's workflows, most recently changed first; past a page, searched by name on the server. */}
        <SearchPicker
          label="Workflow"
          value={filters.workflow_id}
          onChange={(v) => setFilter('workflow_id', v)}
          query={(search) => workflowListQuery({ q: search, limit: '100' })}
          searchable
          searchOnlyWhenMore
          option={(w) => [w.id, w.name]}
          none="All workflows"
          current="This workflow"
        />
        <Select label="Status" value={filters.status} onChange={(v) => setFilter('status', v)} options={[['', 'Any status'], ...RUN_STATUSES.map((s): [string, string] => [s, s.replace(/_/g, ' ')])]} />
        <Select label="Trigger" value={filters.trigger} onChange={(v) => setFilter('trigger', v)} options={[['', 'Any trigger'], ...RUN_TRIGGERS.map((t): [string, string] => [t, triggerWord(t)])]} />
        <ClearFilters list={list} />
      </form>
      <ListTable
        list={list}
        columns={COLUMNS}
       
        caption="Runs, newest first"
        label="Runs"
        empty='No runs match. Start one from a workflow with "Run now".'
      />
    </section>
  );
}
