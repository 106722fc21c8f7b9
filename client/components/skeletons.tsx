/** Loading placeholders, streamed while slow data is on its way. */

export function JobCardSkeleton() {
  return (
    <div className="job-card skeleton-card" aria-hidden="true">
      <div className="card-top">
        <span className="skeleton skeleton-logo" />
        <div className="card-company">
          <span className="skeleton skeleton-line w-1/2" />
          <span className="skeleton skeleton-line w-1/3" />
        </div>
      </div>
      <span className="skeleton skeleton-title" />
      <span className="skeleton skeleton-line w-2/3" />
      <span className="skeleton skeleton-line" />
      <span className="skeleton skeleton-line" />
      <span className="skeleton skeleton-line w-3/4" />
    </div>
  );
}

export function JobGridSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <div className="job-grid" role="status" aria-label={label}>
      {Array.from({ length: count }, (_, i) => <JobCardSkeleton key={i} />)}
    </div>
  );
}

export function LineSkeleton({ label }: { label: string }) {
  return <span className="skeleton skeleton-inline" role="status" aria-label={label} />;
}
