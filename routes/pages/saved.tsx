/** `/saved`: the saved and recently viewed jobs, which live in the visitor's browser. */
import { Island } from "../../client/components/island.tsx";
import { SavedList } from "../../client/islands/saved-list.tsx";
import { Document, type PageMeta } from "./document.tsx";

export function SavedPage({ meta }: { meta: PageMeta }) {
  return (
    <Document meta={meta} section="saved">
      <div className="page-head">
        <div className="wrap">
          <h1 className="page-title">Saved Jobs</h1>
          <p className="muted">
            Kept in this browser only: no account needed, and nobody else sees them.
          </p>
        </div>
      </div>
      <div className="wrap page-body saved-page">
        <Island component={SavedList} props={{}} eager />
      </div>
    </Document>
  );
}
