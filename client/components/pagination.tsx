/** Page links: Previous, Next and a window of page numbers centred on the current. */
import type { Pagination } from "../../kv/jobs/paging.ts";
import { PAGINATION_WINDOW } from "../../kv/constants.ts";

/** The page numbers to show: at most PAGINATION_WINDOW, the current one centred where possible. */
export function pageWindow(current: number, totalPages: number): number[] {
  const size = Math.min(PAGINATION_WINDOW, totalPages);
  const first = Math.max(
    1,
    Math.min(current - Math.floor(PAGINATION_WINDOW / 2), totalPages - size + 1),
  );
  return Array.from({ length: size }, (_, i) => first + i);
}

export function PageLinks(
  { pagination, hrefFor }: { pagination: Pagination; hrefFor: (page: number) => string },
) {
  if (pagination.totalPages <= 1) return null;
  const { currentPage, hasPrev, hasNext } = pagination;
  return (
    <nav className="pagination" aria-label="Pagination">
      {hasPrev
        ? <a className="page-link" href={hrefFor(currentPage - 1)} rel="prev">Previous</a>
        : <span className="page-link" aria-disabled="true">Previous</span>}
      <ul className="page-numbers">
        {pageWindow(currentPage, pagination.totalPages).map((page) => (
          <li key={page}>
            <a
              className="page-link"
              href={hrefFor(page)}
              aria-current={page === currentPage ? "page" : undefined}
              aria-label={`Page ${page}`}
            >
              {page}
            </a>
          </li>
        ))}
      </ul>
      {hasNext
        ? <a className="page-link" href={hrefFor(currentPage + 1)} rel="next">Next</a>
        : <span className="page-link" aria-disabled="true">Next</span>}
    </nav>
  );
}
