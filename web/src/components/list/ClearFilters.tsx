// "Clear filters" on a filtered list: shown only while a filter is set, back to the whole list at
// page 1. `also` clears what the page keeps beside the URL (the text typed in a search box).
import type { ListState } from './useListQuery';

export function ClearFilters({ list, also }: { list: Pick<ListState<unknown>, 'filtered' | 'clearFilters'>; also?: () => void }) {
  if (!list.filtered) return null;
  const clear = () => {
    also?.();
    list.clearFilters();
  };
  return (
    <button type="button" className="button-secondary" onClick={clear}>
      Clear filters
    </button>
  );
}
