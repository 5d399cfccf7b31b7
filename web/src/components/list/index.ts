// The list kit: every list screen uses useListQuery + ListTable; every picker over a server list
// uses SearchPicker. See useListQuery.ts for the pattern and pages/runs/RunsPage.tsx for an example.
export { useListQuery, type ListState } from './useListQuery';
export { ListTable, ListPager, Table, type Column } from './ListTable';
export { SearchPicker } from './SearchPicker';
export { ClearFilters } from './ClearFilters';
