/**
 * Island: the job list's search bar and Filters toggle. The choices of its selects are read back
 * from the server's HTML rather than sent twice.
 */
import { JobFilters, type JobFiltersProps } from "../components/search-forms.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

function choices(root: HTMLElement, name: string): string[] {
  return [...root.querySelectorAll<HTMLOptionElement>(`select[name="${name}"] option`)]
    .map((option) => option.value).filter(Boolean);
}

hydrateIslands<Pick<JobFiltersProps, "values">>("filters", (props, root) => (
  <JobFilters
    values={props.values}
    roles={choices(root, "role")}
    experienceOptions={choices(root, "experience")}
    employmentTypes={choices(root, "employmentType")}
  />
));
