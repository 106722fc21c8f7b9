/**
 * Asking for a job alert, from `POST /api/alerts` and from the no-script form alike: the input's
 * rules, the per-client limit, and the confirmation mail, sent after the answer so the answer is
 * the same, and as quick, whatever happens to the address.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { Services } from "../../server/context.ts";
import { fail } from "../../server/errors.ts";
import { parseWith } from "../../server/validate.ts";
import { clientAddress } from "../../server/request.ts";
import { addressBucket } from "../../server/throttle.ts";
import { emailSchema } from "../../kv/schemas.ts";
import { PUBLIC_FILTERS } from "../../kv/job-fields.ts";
import { ALERT_FREQUENCIES, type AlertQuery } from "../../kv/alerts.ts";
import { ALERT_REQUESTS_PER_HOUR, MAX_EMAIL_LENGTH } from "../../kv/constants.ts";
import type { Config } from "../../server/config.ts";
import { afterAnswer, type Mail } from "../../server/mail.ts";
import { filterQueryOf, pageFilterQuery, searchText, spelledAs } from "../api/jobs.ts";
import { alertLink, confirmationMail } from "./mail.tsx";
import { publicOrigin } from "../pages/site.ts";

/** What every request is answered, whether a mail goes out or not. */
export const ALERT_REQUESTED =
  "Check your inbox: if this address can get job alerts, a link to confirm the alert is on its way.";

/** The search boxes take what the job list takes: a list's search can always become an alert. */
const searchBox = searchText.transform((text) => text?.trim());

export const alertEmail = z.string({ error: "Email is required" })
  .max(MAX_EMAIL_LENGTH, `Email must be at most ${MAX_EMAIL_LENGTH} characters`)
  .refine(
    (text) => ![...text].some((char) => char < " " || char === "\u007f"),
    "Email must not contain control characters",
  )
  .refine(
    (text) => !text.includes("@") || text.slice(text.lastIndexOf("@") + 1).includes("."),
    "Email's domain must contain a dot, such as example.com",
  )
  .pipe(emailSchema);

const numberAsText = (value: unknown) => typeof value === "number" ? String(value) : value;

export const alertInput = z.object({
  email: alertEmail,
  keywords: searchBox,
  location: searchBox,
  ...filterQueryOf(PUBLIC_FILTERS),
  ...pageFilterQuery,
  // A JSON body may give these as numbers; the list's query string gives text.
  payMin: z.preprocess(numberAsText, pageFilterQuery.payMin),
  postedWithin: z.preprocess(numberAsText, pageFilterQuery.postedWithin),
  frequency: z.preprocess(
    spelledAs(ALERT_FREQUENCIES),
    z.enum(ALERT_FREQUENCIES, { error: "frequency must be daily or weekly" }),
  ),
});

/**
 * The site's address in mails and alert pages: `publicOrigin` of the request (SITE_URL, else the
 * request's own when the site answers to its host), so a forged Host never puts an attacker's
 * address around a subscriber's tokens; without a request (the digests), as for this machine.
 */
export function siteOf(config: Config, requestUrl = `http://localhost:${config.PORT}/`): string {
  return publicOrigin(config, requestUrl);
}

/** Sends `mail` and counts it as sent or failed for the day; a failure is logged, never thrown. */
export async function sendCounted(services: Services, mail: Mail, what: string): Promise<boolean> {
  const sent = await services.mailer.send(mail).then(() => true, (error) => {
    console.error(`Sending ${what} failed: ${error instanceof Error ? error.message : error}`);
    return false;
  });
  await services.alerts.countDay(sent ? "sent" : "failed").catch((error) =>
    console.error(`Counting a mail failed: ${error}`)
  );
  return sent;
}

/** Validates and records an alert request; 429 past the client's hourly allowance. */
export async function requestAlert(services: Services, c: Context, body: unknown): Promise<void> {
  const input = parseWith(alertInput, body);
  const count = await services.alerts.countRequest(addressBucket(clientAddress(c)));
  if (count > ALERT_REQUESTS_PER_HOUR) {
    fail(429, "Too many alert requests from this network. Try again in an hour.", {}, {
      "retry-after": "3600",
    });
  }
  const { email, frequency, ...filters } = input;
  // Kept as the list's query string writes them: the digest and the link read them back alike.
  // A pay of 0 is kept too: it asks for the jobs that state a pay.
  const query: AlertQuery = Object.fromEntries(
    Object.entries(filters).flatMap(([name, value]) =>
      value || value === 0 ? [[name, String(value)]] : []
    ),
  );
  const requested = await services.alerts.request({ email, query, frequency });
  if (!requested) return;
  const site = siteOf(services.config, c.req.url);
  const mail = confirmationMail(site, requested.alert, requested.confirm, {
    unsubscribe: alertLink(site, "unsubscribe", requested.links.unsubscribe),
    manage: alertLink(site, "manage", requested.links.manage),
  });
  // After the answer: the answer is the same whether or not a mail goes out.
  afterAnswer(() => sendCounted(services, mail, "a confirmation mail"));
}
