/** The compressor's worker (server/compress.ts): gzips each page it is sent and sends it back. */
import { gzipSync } from "node:zlib";
import { GZIP_OPTIONS, type GzipMessage } from "./compress.ts";

const scope = self as unknown as Worker;
scope.onmessage = ({ data: { id, bytes } }: MessageEvent<GzipMessage>) => {
  const gzipped = new Uint8Array(gzipSync(bytes, GZIP_OPTIONS));
  scope.postMessage({ id, bytes: gzipped } satisfies GzipMessage, [gzipped.buffer]);
};
