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
  const [filters, setFilters] = useState<Record<FilterName, string>>({
    search: search.search ?? "",
    company: search.company ?? "",
    location: search.location ?? "",
  });
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
