/** `/saved`: the saved and recently viewed jobs, which live in the visitor's browser; its route. */
import { Hono } from "hono";
import type { AppEnv } from "../../server/context.ts";
import { Island } from "../../client/components/island.tsx";
import { SavedList } from "../../client/islands/saved-list.tsx";
import { Document, type PageMeta, SITE_NAME } from "./document.tsx";
import { answerKeys } from "../cache-policy.ts";
import type { PublicSite } from "./site.ts";

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

export function savedRoutes(site: PublicSite) {
  const app = new Hono<AppEnv>();
  app.get("/saved", (c) => {
    site.services.counter.pageView(c);
    const meta = site.meta(c, "/saved", {
      title: `Saved Jobs | ${SITE_NAME}`,
      description: `The jobs you saved on ${SITE_NAME}, kept in your browser.`,
      noindex: true,
    });
    // The page is the same for everyone (the lists are filled in the browser): no job revision.
    return site.pages.render(c, {
      key: answerKeys.saved(site.origin(c)),
      revision: 0,
      status: 200,
      load: () => Promise.resolve(null),
      page: () => <SavedPage meta={meta} />,
    });
  });
  return app;
}
