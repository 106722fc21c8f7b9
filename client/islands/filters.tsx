/** Island: the job list's search bar and Filters toggle. */
import { JobFilters, type JobFiltersProps } from "../components/search-forms.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<JobFiltersProps>("filters", (props) => <JobFilters {...props} />);
