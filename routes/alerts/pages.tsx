/**
 * The job alert pages a mail's links open: confirm, unsubscribe and manage. A GET only shows a
 * page with a button; only the button's POST changes anything, so a mail scanner that fetches
 * every link confirms and unsubscribes nothing. A mailbox provider's one-click unsubscribe
 * (RFC 8058) is the same POST. `POST /alerts` is the job list's alert form without JavaScript.
 */
import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import type { AppEnv, Services } from "../../server/context.ts";
import { HTTPException } from "hono/http-exception";
import { limitBody } from "../../server/validate.ts";
import { secureResponse } from "../../server/security.ts";
import type { Alert } from "../../kv/alerts.ts";
import { DIGEST_HOUR, MAIL_LINK_DAYS, PENDING_ALERT_DAYS } from "../../kv/constants.ts";
import { Document, SITE_NAME } from "../pages/document.tsx";
import { renderDocument } from "../pages/render.ts";
import { ALERT_REQUESTED, requestAlert, siteOf } from "./request.ts";
import { describeSearch, searchUrl } from "./mail.tsx";
import { listSearch, parseListQuery } from "../pages/query.ts";

const NOT_VALID = "This link is not valid any more. Links in our mails work for " +
  `${MAIL_LINK_DAYS} days, and a confirmation link for ${PENDING_ALERT_DAYS} days.`;

/** When digests go out, in words: "morning at 8", "evening at 6", "at noon". */
function digestTime(hour: number): string {
  if (hour === 0) return "at midnight";
  if (hour === 12) return "at noon";
  const part = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
  return `${part} at ${hour % 12}`;
}

function AlertPage(
  { site, title, children }: { site: string; title: string; children: ReactNode },
) {
  const meta = {
    title: `${title} | ${SITE_NAME}`,
    description: `Job alerts on ${SITE_NAME}.`,
    canonical: `${site}/jobs`,
    noindex: true,
  };
  return (
    <Document meta={meta}>
      <div className="wrap page-body alert-page">
        <h1 className="page-title">{title}</h1>
        {children}
      </div>
    </Document>
  );
}

/** A form whose button POSTs back to the page's own address, token and all. */
function PostButton(
  { label, name, danger, fields = {} }: {
    label: string;
    /** What a screen reader says, where several buttons show one label. */
    name?: string;
    danger?: boolean;
    fields?: Record<string, string>;
  },
) {
  return (
    <form method="post" className="alert-button-form">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={`btn ${danger ? "btn-secondary" : "btn-primary"}`}
        aria-label={name}
      >
        {label}
      </button>
    </form>
  );
}

function AlertSummary({ alert }: { alert: Alert }) {
  return (
    <p className="muted">
      {`${describeSearch(alert.query, true)}, ${alert.frequency}, to ${alert.email}`}
    </p>
  );
}

/** How the alert pages answer. */
interface AlertAnswers {
  /** The site's origin, for links out of a page. */
  site(c: Context): string;
  /** A page with a token in its address: never cached, indexed or sent on as a referrer. */
  page(c: Context, title: string, body: ReactNode, status?: number): Response;
  /** The page of a link whose token is not (or no longer) good. */
  notValid(c: Context): Response;
}

const tokenOf = (c: Context) => c.req.query("token") ?? "";

export function alertPages(services: Services) {
  const app = new Hono<AppEnv>();
  const site = (c: Context) => siteOf(services.config, c.req.url);
  const page = (c: Context, title: string, body: ReactNode, status = 200) => {
    const response = secureResponse(
      renderDocument(<AlertPage site={site(c)} title={title}>{body}</AlertPage>),
      status,
      [
        ["content-type", "text/html; charset=UTF-8"],
        ["cache-control", "no-store"],
        ["x-robots-tag", "noindex"],
      ],
    );
    response.headers.set("referrer-policy", "no-referrer");
    return response;
  };
  const pages: AlertAnswers = {
    site,
    page,
    notValid: (c) => page(c, "Link not valid", <p>{NOT_VALID}</p>, 404),
  };
  requestCalls(app, services, pages);
  subscriptionCalls(app, services, pages);
  manageCalls(app, services, pages);
  return app;
}

/** `POST /alerts`: the job list's alert form, sent without JavaScript. */
function requestCalls(app: Hono<AppEnv>, services: Services, pages: AlertAnswers) {
  app.post("/", limitBody(8), async (c) => {
    const body = await c.req.parseBody();
    try {
      await requestAlert(services, c, body);
    } catch (error) {
      if (!(error instanceof HTTPException)) throw error;
      const { message } = await error.getResponse().json() as { message: string };
      // Back to the search the alert was asked for, not to every job: its canonical address.
      const search = listSearch(parseListQuery(
        new URLSearchParams(
          Object.entries(body).flatMap(([name, value]) =>
            typeof value === "string" ? [[name, value]] : []
          ),
        ),
      ));
      return pages.page(
        c,
        "Job alert not created",
        <>
          <p role="alert">{message}</p>
          <p>
            <a href={`/jobs${search}`}>Back to the jobs</a>
          </p>
        </>,
        error.status,
      );
    }
    return pages.page(
      c,
      "Check your inbox",
      <>
        <p>{ALERT_REQUESTED}</p>
        <p className="muted">
          {`Nothing is sent until you confirm. The link works for ${PENDING_ALERT_DAYS} days.`}
        </p>
      </>,
      202,
    );
  });
}

/** A mail's confirm and unsubscribe links: each a page with a button, and the button's POST. */
function subscriptionCalls(app: Hono<AppEnv>, { alerts }: Services, pages: AlertAnswers) {
  app.get("/confirm", async (c) => {
    const alert = await alerts.alertOf(tokenOf(c), "confirm");
    if (!alert) return pages.notValid(c);
    return pages.page(
      c,
      "Confirm your job alert",
      <>
        <AlertSummary alert={alert} />
        <PostButton label="Confirm the alert" />
      </>,
    );
  });

  app.post("/confirm", async (c) => {
    const alert = await alerts.confirm(tokenOf(c));
    if (!alert) return pages.notValid(c);
    const jobsNow = searchUrl(pages.site(c), alert.query);
    return pages.page(
      c,
      "Your job alert is on",
      <>
        <AlertSummary alert={alert} />
        <p>
          {`New jobs come ${alert.frequency === "daily" ? "every" : "every Monday"} ${
            digestTime(DIGEST_HOUR)
          }, when there are any.`} <a href={jobsNow}>See the jobs now</a>
        </p>
      </>,
    );
  });

  app.get("/unsubscribe", async (c) => {
    const alert = await alerts.alertOf(tokenOf(c), "unsubscribe");
    if (!alert) return pages.notValid(c);
    return pages.page(
      c,
      "Unsubscribe from this job alert?",
      <>
        <AlertSummary alert={alert} />
        <PostButton label="Unsubscribe" danger />
      </>,
    );
  });

  app.post("/unsubscribe", async (c) => {
    const alert = await alerts.alertOf(tokenOf(c), "unsubscribe");
    if (alert) await alerts.remove(alert.id);
    // Unsubscribing twice is no error: the alert is gone either way.
    return pages.page(
      c,
      "Unsubscribed",
      <p>
        {alert
          ? `No more mails for ${describeSearch(alert.query)}.`
          : "This alert was already gone: no more mails will come for it."}
      </p>,
    );
  });
}

/**
 * A mail's manage link: the address's alerts, each paused, resumed or deleted by a button. The
 * link outlives its address (gone with its last alert): then its page names no address.
 */
function manageCalls(app: Hono<AppEnv>, { alerts }: Services, pages: AlertAnswers) {
  app.get("/manage", async (c) => {
    const email = await alerts.managedAddress(tokenOf(c));
    if (email === undefined) return pages.notValid(c);
    const list = email ? (await alerts.alertsOf(email)).alerts : [];
    return pages.page(
      c,
      "Your job alerts",
      list.length === 0
        ? (
          <p>
            No alerts any more, and the address is not kept. <a href="/jobs">Find jobs</a>
          </p>
        )
        : (
          <>
            <p className="muted">{`Alerts for ${email}.`}</p>
            <ul className="panel alert-list">
              {list.map((alert) => <ManagedAlert key={alert.id} alert={alert} />)}
            </ul>
          </>
        ),
    );
  });

  app.post("/manage", limitBody(2), async (c) => {
    const email = await alerts.managedAddress(tokenOf(c));
    if (email === undefined) return pages.notValid(c);
    const form = await c.req.parseBody();
    const alert = typeof form.alert === "string" ? await alerts.get(form.alert) : null;
    // Only the link's own address's alerts: any other id is as if it were not there.
    if (alert?.email === email) {
      if (form.action === "delete") await alerts.remove(alert.id);
      else if (form.action === "pause" || form.action === "resume") {
        await alerts.setPaused(alert, form.action === "pause");
      }
    }
    return c.redirect(`/alerts/manage?token=${encodeURIComponent(tokenOf(c))}`, 303);
  });
}

const STATUS_TEXT: Record<Alert["status"], string> = {
  pending: "Waiting for you to confirm it (see the mail we sent)",
  active: "On",
  paused: "Paused",
};

function ManagedAlert({ alert }: { alert: Alert }) {
  const search = describeSearch(alert.query, true);
  const pause = alert.status === "paused" ? "Resume" : "Pause";
  return (
    <li className="alert-item">
      <div>
        <p className="saved-role">{search}</p>
        <p className="muted small">
          {`${alert.frequency === "daily" ? "Daily" : "Weekly"} · ${STATUS_TEXT[alert.status]}`}
        </p>
      </div>
      <div className="alert-actions">
        {alert.status !== "pending" && (
          <PostButton
            label={pause}
            name={`${pause} ${search}`}
            danger
            fields={{ alert: alert.id, action: pause.toLowerCase() }}
          />
        )}
        <PostButton
          label="Delete"
          name={`Delete ${search}`}
          danger
          fields={{ alert: alert.id, action: "delete" }}
        />
      </div>
    </li>
  );
}
