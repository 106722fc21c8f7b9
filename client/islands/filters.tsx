/**
 * Island: the job list's search bar and Filters toggle. The choices of its selects are read back
 * from the server's HTML rather than sent twice.
 */
import { type Choice, JobFilters, type JobFiltersProps } from "../components/search-forms.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";
import { PUBLIC_FILTERS } from "../../kv/job-fields.ts";

function choices(root: HTMLElement, name: string): Choice[] {
  return [...root.querySelectorAll<HTMLOptionElement>(`select[name="${name}"] option`)]
    .filter((option) => option.value).map(({ value, text }) => ({ value, label: text }));
}

hydrateIslands<Pick<JobFiltersProps, "values">>("filters", (props, root) => (
  <JobFilters
    values={props.values}
    choices={Object.fromEntries(PUBLIC_FILTERS.map(({ param }) => [param, choices(root, param)]))}
  />
));
