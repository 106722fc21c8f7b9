/** The HTML document around every public page: head tags for search engines and sharing, header, footer. */
import type { ReactNode } from "react";
import { assetUrl } from "../../server/assets.ts";
import { LIVE_RELOAD_SCRIPT } from "../../server/live-reload.ts";
import { FooterContent, HeaderContent, type Section } from "../../client/components/site.tsx";
import { jsonForScript } from "../../client/components/json.ts";
import { TOAST_REGION_ID, ToastRegion } from "../../client/components/toast.tsx";
import { iconUrl } from "../icons.ts";
import { Island } from "../../client/components/island.tsx";
import { SavedLink } from "../../client/islands/save.tsx";
import { keptMarkup } from "./render.ts";

export const SITE_NAME = "CareerEdge";

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL. */
  canonical: string;
  /** Kept out of search results; its links are still followed. */
  noindex?: boolean;
  /** Sharing previews: a job page is an article; `image` is a 1200 x 630 picture. */
  openGraph?: { type: "website" | "article"; image?: string };
  /** schema.org data, written into a JSON-LD script element. */
  structuredData?: unknown;
  /** An RSS feed of what the page lists. */
  feed?: string;
}

/**
 * With scripts off: hide what only works with them and open what they would toggle. The layer comes
 * before the stylesheet's, so its !important rules win.
 */
const NO_SCRIPT_CSS = "@layer no-script{.js-only{display:none!important}" +
  ".no-js-only{display:revert!important}.filter-panel{display:grid!important}}";

/**
 * Goes with a streamed page's skeletons. React sends the content that replaces them at the end of
 * the page, and only its inline script can move it into place; with scripts off the page instead
 * reloads itself a second later, when the whole page has been cached, rather than keep skeletons.
 */
export function ReloadWithoutScript() {
  return (
    <noscript>
      <meta httpEquiv="refresh" content="1" />
    </noscript>
  );
}

/**
 * The header's and footer's HTML, the same on every page of a section, made once: React renders a
 * page element by element, and these two were a third of a job page's elements.
 */
const FOOTER_HTML = keptMarkup(<FooterContent />);
const SECTIONS: (Section | undefined)[] = [undefined, "home", "jobs", "saved"];
const HEADER_HTML = new Map(
  SECTIONS.map((section) => [section, keptMarkup(<HeaderContent current={section} />)]),
);

export function Document(
  { meta, section, children }: { meta: PageMeta; section?: Section; children: ReactNode },
) {
  const og = meta.openGraph ?? { type: "website" };
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{meta.title}</title>
        <meta name="description" content={meta.description} />
        <link rel="canonical" href={meta.canonical} />
        {meta.noindex && <meta name="robots" content="noindex, follow" />}
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href={iconUrl("favicon.svg")} type="image/svg+xml" />
        <link rel="apple-touch-icon" href={iconUrl("apple-touch-icon.png")} />
        <meta property="og:site_name" content={SITE_NAME} />
        <meta property="og:type" content={og.type} />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        <meta property="og:url" content={meta.canonical} />
        {og.image && <meta property="og:image" content={og.image} />}
        <meta name="twitter:card" content={og.image ? "summary_large_image" : "summary"} />
        <meta name="twitter:title" content={meta.title} />
        <meta name="twitter:description" content={meta.description} />
        {og.image && <meta name="twitter:image" content={og.image} />}
        <noscript>
          <style>{NO_SCRIPT_CSS}</style>
        </noscript>
        <link rel="stylesheet" href={assetUrl("styles.css")} />
        {LIVE_RELOAD_SCRIPT && <script type="module" src={LIVE_RELOAD_SCRIPT} />}
        {meta.feed && (
          <link
            rel="alternate"
            type="application/rss+xml"
            title="CareerEdge jobs"
            href={meta.feed}
          />
        )}
        {meta.structuredData !== undefined && (
          <script
            type="application/ld+json"
            // deno-lint-ignore react-no-danger -- jsonForScript escapes every `<`, `>` and `&`
            dangerouslySetInnerHTML={{ __html: jsonForScript(meta.structuredData) }}
          />
        )}
      </head>
      <body>
        <a href="#main" className="skip-link">Skip to main content</a>
        <header className="site-header">
          <div className="wrap header-row">
            <div
              className="header-static"
              // deno-lint-ignore react-no-danger -- markup React made from constants (above)
              dangerouslySetInnerHTML={{ __html: HEADER_HTML.get(section)! }}
            />
            <Island component={SavedLink} props={{ current: section === "saved" }} />
          </div>
        </header>
        <main id="main">{children}</main>
        <footer
          className="site-footer"
          // deno-lint-ignore react-no-danger -- markup React made from constants (above)
          dangerouslySetInnerHTML={{ __html: FOOTER_HTML }}
        />
        <ToastRegion id={TOAST_REGION_ID} />
      </body>
    </html>
  );
}
