/**
 * Manage Jobs' three filter boxes: what is typed shows at once and goes to the address (and so to
 * the server) once typing settles.
 */
import { useEffect, useId, useState } from "react";
import type { JobListSearch } from "../queries.ts";

/** How long typing settles before the filters go to the server. */
const FILTER_DELAY_MS = 300;

type FilterName = "search" | "company" | "location";
type Filters = Pick<JobListSearch, FilterName>;

export function JobFilters({ search, onChange }: {
  search: Filters;
  /** The filters as typed, trimmed, empty ones left out: called only when one differs. */
  onChange: (next: Filters) => void;
}) {
  const [filters, setFilters] = useState(() => boxesOf(search));
  // The address's filters as last seen, and the ones this typing last sent there: the address can
  // change under the boxes (the sidebar's Manage Jobs link, Back, Forward), and the boxes must then
  // say what the list is filtered by. The address arriving at what was sent is no such change,
  // and keeps what the admin typed since.
  const [seen, setSeen] = useState(() => keyOf(search));
  const [sent, setSent] = useState<string | null>(null);
  if (keyOf(search) !== seen) {
    setSeen(keyOf(search));
    if (keyOf(search) === sent) setSent(null);
    else setFilters(boxesOf(search));
  }
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = {
        search: filters.search.trim() || undefined,
        company: filters.company.trim() || undefined,
        location: filters.location.trim() || undefined,
      };
      if (
        next.search !== search.search || next.company !== search.company ||
        next.location !== search.location
      ) {
        setSent(keyOf(next));
        onChange(next);
      }
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [filters]);

  return (
    <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
      <FilterInput
        label="Search"
        placeholder="Role, company or job ID"
        value={filters.search}
        onChange={(value) => setFilters({ ...filters, search: value })}
      />
      <FilterInput
        label="Company"
        placeholder="Company name"
        value={filters.company}
        onChange={(value) => setFilters({ ...filters, company: value })}
      />
      <FilterInput
        label="Location"
        placeholder="City or remote"
        value={filters.location}
        onChange={(value) => setFilters({ ...filters, location: value })}
      />
    </div>
  );
}

function boxesOf(filters: Filters): Record<FilterName, string> {
  return {
    search: filters.search ?? "",
    company: filters.company ?? "",
    location: filters.location ?? "",
  };
}

/** One string for a set of filters, an absent one the same as an empty one. */
function keyOf(filters: Filters): string {
  const { search, company, location } = boxesOf(filters);
  return JSON.stringify([search, company, location]);
}

function FilterInput({ label, placeholder, value, onChange }: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">{label}</label>
      <input
        id={id}
        type="search"
        className="field"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
