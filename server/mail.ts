/**
 * Sending mail, for every part of the product that sends any: over SMTP with nodemailer when
 * SMTP_URL is set (smtp:// or smtps://, credentials in the URL), else written to the server's log.
 * Every mail has a plain-text and an HTML part; a mail to a list carries RFC 8058 one-click
 * unsubscribe headers.
 */
import type nodemailer from "nodemailer";
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

/**
 * A mail to send to many, alike but for each one's address, Message-ID and the texts `own` puts in
 * (its links): built once, each copy costs a few replacements. Throws as `send` does.
 */
export type MailTemplate = (
  to: string,
  messageId: string,
  own: (text: string) => string,
) => Promise<void>;

export interface Mailer {
  /** Where mails go, in words for the start message. */
  readonly destination: string;
  /** Sends the mail; throws when the server does not accept it. */
  send(mail: Mail): Promise<void>;
  /** `mail` as a template; its `to` and `messageId` are replaced in each copy. */
  template(mail: Mail): Promise<MailTemplate>;
  close(): void;
}

/** A template that sends each copy as a mail of its own. */
function copiesOf(send: (mail: Mail) => Promise<void>, mail: Mail): Promise<MailTemplate> {
  return Promise.resolve((to, messageId, own) =>
    send({
      ...mail,
      to,
      messageId,
      text: own(mail.text),
      html: own(mail.html),
      unsubscribe: mail.unsubscribe && own(mail.unsubscribe),
    })
  );
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
  const url = config.SMTP_URL;
  // nodemailer is imported with the first mail: it takes longer to load than the rest of the
  // server, and a cold start that sends nothing must not wait for it.
  type Transport = ReturnType<typeof nodemailer.createTransport>;
  let transports: Promise<{ transport: Transport; composer: Transport }> | null = null;
  const open = () =>
    transports ??= import("nodemailer").then(({ default: mailer }) => ({
      transport: mailer.createTransport({ url, pool: true }),
      // Builds messages without sending them: a template's headers, by nodemailer's own rules.
      composer: mailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
    }));
  const envelopeFrom = from.match(/<([^<>]+)>\s*$/)?.[1] ?? from.trim();
  const where = new URL(url);
  const message = (mail: Mail) => ({
    from,
    to: mail.to,
    subject: mail.subject,
    // Parts given whole: nodemailer's own encoding of each, through its streams, cost 2-3 times
    // as much CPU per mail, which counts when a digest run sends thousands.
    alternatives: [bodyPart("text/plain", mail.text), bodyPart("text/html", mail.html)],
    messageId: mail.messageId,
    headers: mail.unsubscribe ? unsubscribeHeaders(mail.unsubscribe) : undefined,
  });
  return {
    destination: `SMTP server ${where.protocol}//${where.host}`,
    async send(mail) {
      await (await open()).transport.sendMail(message(mail));
    },
    async template(mail) {
      const { transport, composer } = await open();
      // Stand-ins for the address and id of each copy; addresses are ASCII (emailSchema).
      const stand = {
        to: `${crypto.randomUUID()}@stand-in.invalid`,
        id: `<${crypto.randomUUID()}@stand-in.invalid>`,
      };
      // Only the headers are kept: the parts are left empty, as building them costs.
      const built = await composer.sendMail(
        message({ ...mail, to: stand.to, messageId: stand.id, text: "", html: "" }),
      );
      const whole = String(built.message);
      const head = whole.slice(0, whole.indexOf("\r\n\r\n"));
      const boundary = head.match(/boundary="([^"]+)"/)?.[1];
      if (!boundary) return copiesOf((copy) => this.send(copy), mail);
      // Each copy: the headers with its own address, id and links, and its parts built anew.
      return async (to, messageId, own) => {
        const raw = [
          own(head.replace(stand.to, to).replace(stand.id, messageId)),
          "",
          `--${boundary}`,
          bodyPart("text/plain", own(mail.text)).raw,
          `--${boundary}`,
          bodyPart("text/html", own(mail.html)).raw,
          `--${boundary}--`,
          "",
        ].join("\r\n");
        await transport.sendMail({ envelope: { from: envelopeFrom, to: [to] }, raw });
      };
    },
    close: () =>
      void transports?.then(({ transport, composer }) => {
        transport.close();
        composer.close();
      }),
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
    template(mail) {
      return copiesOf((copy) => this.send(copy), mail);
    },
    close() {},
  };
}

/** Mails still being sent after their answer went out. */
const inFlight = new Set<Promise<unknown>>();

/**
 * Sends a mail after its answer went out, followed so a graceful stop can wait for it. `start` runs
 * on a later turn of the event loop: begun now, its first reads and writes would run before the
 * answer is written, and a request that sends a mail would be answered later than one that does
 * not, telling which addresses are known.
 */
export function afterAnswer(start: () => Promise<unknown>): void {
  const sending = new Promise((resolve) => setTimeout(resolve, 0)).then(start);
  inFlight.add(sending);
  sending.finally(() => inFlight.delete(sending));
}

/** Resolves once every mail sent after its answer has been sent or has failed. */
export async function mailsSent(): Promise<void> {
  while (inFlight.size) await Promise.all(inFlight);
}
