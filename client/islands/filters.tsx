/**
 * Island: the job list's search bar and Filters toggle. The choices of its selects are read back
 * from the server's HTML rather than sent twice.
 */
import {
  type Choice,
  JobFilters,
  type JobFiltersProps,
  PAGE_FILTERS,
} from "../components/search-forms.tsx";
import { PUBLIC_FILTERS } from "../../kv/job-fields.ts";

function choices(root: HTMLElement, name: string): Choice[] {
  return [...root.querySelectorAll<HTMLOptionElement>(`select[name="${name}"] option`)]
    .filter((option) => option.value).map(({ value, text }) => ({ value, label: text }));
}

export function Filters(props: JobFiltersProps) {
  return <JobFilters {...props} />;
}

Filters.revive = (sent: Partial<JobFiltersProps>, root: HTMLElement): JobFiltersProps => ({
  values: sent.values ?? {},
  choices: Object.fromEntries(
    [...PUBLIC_FILTERS, ...PAGE_FILTERS].map(({ param }) => [param, choices(root, param)]),
  ),
});
