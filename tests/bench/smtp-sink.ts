/**
 * An SMTP server that accepts every message and keeps none, for the job alert bench: it prints its
 * port, then runs until killed.
 */
import { SMTPServer } from "smtp-server";
import type { Readable } from "node:stream";

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(data, _session, callback) {
    const stream = data as unknown as Readable;
    stream.on("data", () => {});
    stream.on("end", () => callback());
  },
});
server.listen(0, "127.0.0.1", () => {
  console.log((server.server.address() as { port: number }).port);
});
