/**
 * Sending mail, for every part of the product that sends any: over SMTP with nodemailer when
 * SMTP_URL is set (smtp:// or smtps://, credentials in the URL), else written to the server's log.
 * Every mail has a plain-text and an HTML part; a mail to a list carries RFC 8058 one-click
 * unsubscribe headers.
 */
import nodemailer from "nodemailer";
import { Buffer } from "node:buffer";
import type { Config } from "./config.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An https URL that unsubscribes on a POST (RFC 8058), for mails sent to a list. */
  unsubscribe?: string;
  /** A stable id, so a mail sent again after a crash can be told for the same one. */
  messageId?: string;
}

export interface Mailer {
  /** Where mails go, in words for the start message. */
  readonly destination: string;
  /** Sends the mail; throws when the server does not accept it. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** The headers of one-click unsubscribe: a mailbox provider's button POSTs to the URL. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${url}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** A MIME part of UTF-8 text in base64, in lines of 76 characters (RFC 2045). */
function bodyPart(type: "text/plain" | "text/html", text: string): { raw: string } {
  const lines = Buffer.from(text.replace(/\r?\n/g, "\r\n")).toString("base64")
    .replace(/.{76}(?!$)/g, "$&\r\n");
  return {
    raw:
      `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${lines}`,
  };
}

/** `siteName` and the site's address name the sender when MAIL_FROM is unset. */
export function createMailer(config: Config, siteName: string): Mailer {
  const host = config.SITE_URL ? new URL(config.SITE_URL).hostname : "localhost";
  const from = config.MAIL_FROM ?? `${siteName} <no-reply@${host}>`;
  if (!config.SMTP_URL) return logMailer(from);
  const transport = nodemailer.createTransport({ url: config.SMTP_URL, pool: true });
  const where = new URL(config.SMTP_URL);
  return {
    destination: `SMTP server ${where.protocol}//${where.host}`,
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        // Parts given whole: nodemailer's own encoding of each, through its streams, cost 2-3
        // times as much CPU per mail, which counts when a digest run sends thousands.
        alternatives: [bodyPart("text/plain", mail.text), bodyPart("text/html", mail.html)],
        messageId: mail.messageId,
        headers: mail.unsubscribe ? unsubscribeHeaders(mail.unsubscribe) : undefined,
      });
    },
    close: () => transport.close(),
  };
}

/** Without SMTP_URL: each mail's text part goes to the log, for development. */
function logMailer(from: string): Mailer {
  return {
    destination: "the server's log (SMTP_URL is not set)",
    send(mail) {
      console.log(
        [`Mail from ${from} to ${mail.to}: ${mail.subject}`, mail.text, "-- end of mail"].join(
          "\n",
        ),
      );
      return Promise.resolve();
    },
    close() {},
  };
}

/** Mails still being sent after their answer went out. */
const inFlight = new Set<Promise<unknown>>();

/** Follows a mail sent after its answer went out, so a graceful stop can wait for it. */
export function afterAnswer(sending: Promise<unknown>): void {
  inFlight.add(sending);
  sending.finally(() => inFlight.delete(sending));
}

/** Resolves once every mail sent after its answer has been sent or has failed. */
export async function mailsSent(): Promise<void> {
  while (inFlight.size) await Promise.all(inFlight);
}
