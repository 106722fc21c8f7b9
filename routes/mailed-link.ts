/**
 * Asking for a link mailed to an admin's address (a password reset, a browser confirmation): the
 * request is validated and counted per client network, answered the same whatever the address,
 * and the link is issued and mailed after the answer, so its timing tells nothing either.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../server/context.ts";
import { fail } from "../server/errors.ts";
import { parseWith } from "../server/validate.ts";
import { clientAddress } from "../server/request.ts";
import { addressBucket } from "../server/throttle.ts";
import { afterAnswer, type Mail } from "../server/mail.ts";
import type { AdminRecord } from "../kv/schemas.ts";
import type { WindowCount } from "../kv/atomic.ts";
import { alertEmail } from "./alerts/request.ts";
import { publicOrigin } from "./pages/site.ts";

export interface MailedLink {
  /** Where the links and the per-client counts are kept. */
  store: {
    countRequest(bucket: string): Promise<WindowCount>;
    issue(adminId: string): Promise<string | null>;
  };
  requestsPerHour: number;
  /** The 429's message past a client's allowance. */
  tooMany: string;
  /** The page the link opens, with `?token=` after it. */
  path: string;
  mail: (admin: AdminRecord, link: string) => Mail;
  /** The mail in words, for the log when sending fails. */
  name: string;
}

const requestInput = z.object({ email: alertEmail });

/** Validates a request and mails a link when the address is an active admin's. */
export async function requestMailedLink(
  services: Services,
  c: Context<AppEnv>,
  body: unknown,
  link: MailedLink,
): Promise<void> {
  const { email } = parseWith(requestInput, body);
  const { count } = await link.store.countRequest(addressBucket(clientAddress(c)));
  if (count > link.requestsPerHour) fail(429, link.tooMany, {}, { "retry-after": "3600" });
  const admin = await services.admins.getByEmail(email);
  if (!admin?.isActive) return;
  const site = publicOrigin(services.config, c.req.url);
  // After the answer, the link's writes too: a known address is answered as quickly as any other.
  afterAnswer(() => mailLink(services, admin, `${site}${link.path}`, link));
}

async function mailLink(
  services: Services,
  admin: AdminRecord,
  page: string,
  link: MailedLink,
): Promise<void> {
  try {
    const token = await link.store.issue(admin._id);
    if (!token) return;
    await services.mailer.send(link.mail(admin, `${page}?token=${encodeURIComponent(token)}`));
  } catch (error) {
    console.error(
      `Sending a ${link.name} mail failed: ${error instanceof Error ? error.message : error}`,
    );
  }
}
