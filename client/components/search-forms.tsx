/**
 * The search forms. Both are plain GET forms to /jobs, so searching works without JavaScript (the
 * server drops empty values with a redirect); hydrated, they leave empty values out themselves.
 */
import { type FormEvent, useRef, useState } from "react";
import { type FilterParam, PUBLIC_FILTERS, type PublicFilter } from "../../kv/job-fields.ts";

export const QUICK_SEARCHES = [
  "Remote",
  "Full-time",
  "Software Engineer",
  "Data Science",
  "Marketing",
] as const;

/** The id of the results' heading on /jobs, where a filter's choice lands on a phone. */
export const RESULTS_ID = "results";

/**
 * Goes to /jobs with only the non-empty fields of `form`, in the form's order; to its results when
 * `toResults`, on a screen where the open filters panel would push them out of sight.
 */
function searchWith(form: HTMLFormElement, toResults = false) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    // Relevance is the default order: the canonical address leaves it out.
    if (text && !(name === "sortBy" && text === "relevance")) params.set(name, text);
  }
  const results = toResults && matchMedia("(max-width: 639px)").matches ? `#${RESULTS_ID}` : "";
  location.assign(`${params.size > 0 ? `/jobs?${params}` : "/jobs"}${results}`);
}

function searchWithFilledFields(event: FormEvent<HTMLFormElement>) {
  event.preventDefault();
  searchWith(event.currentTarget);
}

export function HeroSearch() {
  const [keywords, setKeywords] = useState("");
  return (
    <>
      <form
        className="hero-search"
        method="get"
        action="/jobs"
        role="search"
        aria-label="Search jobs"
        onSubmit={searchWithFilledFields}
      >
        <label className="field-with-icon ico ico-search">
          <span className="sr-only">Job title, keywords, or company</span>
          <input
            className="input"
            name="keywords"
            placeholder="Job title, keywords, or company"
            value={keywords}
            onChange={(event) => setKeywords(event.target.value)}
          />
        </label>
        <label className="field-with-icon">
          <span className="sr-only">City, state, or remote</span>
          <input className="input" name="location" placeholder="City, state, or remote" />
        </label>
        <button type="submit" className="btn btn-primary">Search Jobs</button>
      </form>
      <div className="quick-chips js-only">
        <span className="quick-label" id="quick-label">Popular:</span>
        <ul className="chip-list" aria-labelledby="quick-label">
          {QUICK_SEARCHES.map((text) => (
            <li key={text}>
              <button type="button" className="chip chip-button" onClick={() => setKeywords(text)}>
                {text}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

/**
 * The filters the field table does not give, with their options from the page: the pay's lower
 * bound (rupees a year, by band), the Date posted window (days) and the company.
 */
export const PAGE_FILTERS = [
  { param: "payMin", label: "Salary", all: "Any Salary" },
  { param: "postedWithin", label: "Date Posted", all: "Any time" },
  { param: "company", label: "Company", all: "All Companies" },
] as const;
export type PageFilterParam = (typeof PAGE_FILTERS)[number]["param"];

/** The search box, the location, a value per public filter and the order. */
export interface FilterValues
  extends Partial<Record<FilterParam, string>>, Partial<Record<PageFilterParam, string>> {
  keywords?: string;
  location?: string;
  /** Newest first, or highest pay first; left out, a keyword search ranks by relevance. */
  sortBy?: "datePosted" | "pay";
}

/** Whether any of the filters' dropdowns has a choice made. */
export function hasFilterChoice(values: FilterValues): boolean {
  return [...PUBLIC_FILTERS, ...PAGE_FILTERS].some(({ param }) => values[param]);
}

/** An option of a select: its value and what the visitor reads (`Full-Time (42)`). */
export interface Choice {
  value: string;
  label: string;
}

export interface JobFiltersProps {
  values: FilterValues;
  /** The options of each public filter's dropdown, by its query parameter. */
  choices: Record<string, Choice[]>;
  /** The public filters of the job field table. */
  filters?: readonly PublicFilter[];
}

const SORT_CHOICES: Choice[] = [
  { value: "relevance", label: "Relevance" },
  { value: "datePosted", label: "Newest" },
  { value: "pay", label: "Salary (high to low)" },
];

const PANEL_ID = "filter-panel";

function Select(
  { name, label, allLabel, options, value }: {
    name: string;
    label: string;
    allLabel?: string;
    options: Choice[];
    value?: string;
  },
) {
  // A choice made with the pointer applies at once. One made from the keyboard waits for Search:
  // arrowing through a closed select changes its value at every key press, and a page that
  // reloaded on each would never let a keyboard user reach the third option.
  const byKeyboard = useRef(false);
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select
        className="input"
        name={name}
        defaultValue={value ?? ""}
        onKeyDown={(event) => {
          if (event.key !== "Tab") byKeyboard.current = true;
        }}
        onPointerDown={() => {
          byKeyboard.current = false;
        }}
        onChange={(event) =>
          !byKeyboard.current && event.currentTarget.form &&
          searchWith(event.currentTarget.form, true)}
      >
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>{option.label}</option>
        ))}
      </select>
    </label>
  );
}

/** The /jobs search bar with the Filters toggle; the panel starts open when a filter is set. */
export function JobFilters({ values, choices, filters = PUBLIC_FILTERS }: JobFiltersProps) {
  const [open, setOpen] = useState(hasFilterChoice(values));
  // The browser refills a form's controls with what was typed or picked when the page is reloaded
  // or reached with back and forward; here that would show a search the list below does not.
  return (
    <form
      className="filters"
      method="get"
      action="/jobs"
      role="search"
      aria-label="Search and filter jobs"
      autoComplete="off"
      onSubmit={searchWithFilledFields}
    >
      <div className="filters-row">
        <label className="field-with-icon grow ico ico-search">
          <span className="sr-only">Job title, keywords, or company</span>
          <input
            className="input"
            name="keywords"
            placeholder="Job title, keywords, or company"
            defaultValue={values.keywords ?? ""}
          />
        </label>
        <label className="field-with-icon grow">
          <span className="sr-only">City, state, or remote</span>
          <input
            className="input"
            name="location"
            placeholder="City, state, or remote"
            defaultValue={values.location ?? ""}
          />
        </label>
        <button
          type="button"
          className="btn btn-secondary js-only ico ico-filter"
          aria-expanded={open}
          aria-controls={PANEL_ID}
          onClick={() => setOpen(!open)}
        >
          Filters
        </button>
      </div>
      {/* Right after the toggle that opens it, so Tab goes from Filters into the choices. */}
      <div id={PANEL_ID} className={open ? "filter-panel" : "filter-panel collapsed"}>
        {[
          // A filter kept for old links shows only while it is set, so it can be cleared.
          ...filters.filter(({ param, linkOnly }) =>
            !linkOnly || (values as Record<string, string | undefined>)[param]
          ),
          ...PAGE_FILTERS,
        ].map(({ param, label, all }) => (
          <Select
            key={param}
            name={param}
            label={label}
            allLabel={all}
            options={choices[param] ?? []}
            value={(values as Record<string, string | undefined>)[param]}
          />
        ))}
      </div>
      <div className="filters-actions">
        <Select
          name="sortBy"
          label="Sort by"
          options={SORT_CHOICES}
          value={values.sortBy ?? "relevance"}
        />
        <button type="submit" className="btn btn-primary">Search</button>
        <a href="/jobs" className="btn btn-ghost">Clear Filters</a>
      </div>
    </form>
  );
}
