/**
 * A real SMTP server for tests (the smtp-server package) on a free local port: it keeps every
 * message it accepts, and refuses the next ones on demand, as a full or failing server would.
 */
import { SMTPServer } from "smtp-server";
import type { Readable } from "node:stream";
import { waitFor } from "./wait.ts";

/**
 * The longest a test waits for mail: a mail that never comes fails the test, saying so, rather
 * than holding the suite until CI gives up on it.
 */
const MAIL_WAIT_MS = 30_000;

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** A header's value, unfolded (the first of that name). */
  header(name: string): string | undefined;
  /** The plain-text part, decoded. */
  text: string;
  /** The HTML part, decoded. */
  html: string;
}

export interface TestSmtp extends AsyncDisposable {
  url: string;
  mails: ReceivedMail[];
  /** Refuses this many of the next messages with 550. */
  refuse: number;
  /** Resolves once `count` mails have arrived in all; fails after MAIL_WAIT_MS. */
  received(count: number): Promise<ReceivedMail[]>;
  /** Messages to these addresses are read and never answered, as by a server that hangs. */
  hold: Set<string>;
  /** Resolves once `count` messages are held in all; fails after MAIL_WAIT_MS. */
  held(count: number): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === "=" && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i));
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** A header's RFC 2047 encoded words (`=?UTF-8?Q?...?=`) decoded; the space between two goes. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(
    /=\?UTF-8\?([QB])\?([^?]*)\?=/gi,
    (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
        : decodeQuotedPrintable(text.replaceAll("_", " ")),
  );
}

/** The decoded body of the part of type `type` in a multipart message. */
function part(raw: string, type: string): string {
  const start = raw.search(new RegExp(`Content-Type: ${type}`, "i"));
  if (start < 0) return "";
  const rest = raw.slice(start);
  const headerEnd = rest.indexOf("\r\n\r\n");
  const headers = rest.slice(0, headerEnd);
  const boundary = raw.match(/boundary="?([^";\r\n]+)"?/i)?.[1];
  const body = boundary ? rest.slice(headerEnd + 4).split(`\r\n--${boundary}`)[0] : "";
  if (/quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
  if (/base64/i.test(headers)) {
    return new TextDecoder().decode(
      Uint8Array.from(atob(body.replace(/\s/g, "")), (c) => c.charCodeAt(0)),
    );
  }
  return body;
}

function parse(to: string[], raw: string): ReceivedMail {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
  return {
    to,
    raw,
    header(name) {
      const value = head.match(new RegExp(`^${name}: (.*)$`, "im"))?.[1];
      return value === undefined ? undefined : decodeWords(value);
    },
    text: part(raw, "text/plain"),
    html: part(raw, "text/html"),
  };
}

export async function testSmtp(): Promise<TestSmtp> {
  let heldCount = 0;
  const state: TestSmtp = {
    url: "",
    mails: [],
    refuse: 0,
    hold: new Set(),
    async held(count) {
      await waitFor(
        `${count} held mails`,
        () => heldCount >= count,
        MAIL_WAIT_MS,
      );
    },
    received(count) {
      return waitFor(
        `${count} mails`,
        () => state.mails.length >= count && state.mails,
        MAIL_WAIT_MS,
      );
    },
    async [Symbol.asyncDispose]() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(data, session, callback) {
      const stream = data as unknown as Readable;
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        if (session.envelope.rcptTo.some((rcpt) => state.hold.has(rcpt.address))) {
          heldCount++;
          return;
        }
        if (state.refuse > 0) {
          state.refuse--;
          const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
          return callback(error);
        }
        const raw = new TextDecoder().decode(
          Uint8Array.from(chunks.flatMap((chunk) => [...chunk])),
        );
        state.mails.push(parse(session.envelope.rcptTo.map((rcpt) => rcpt.address), raw));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address() as { port: number };
  state.url = `smtp://127.0.0.1:${address.port}`;
  return state;
}
