/** The compressor's worker (server/compress.ts): gzips each page it is sent and sends it back. */
import { type GzipDone, gzipNow, type GzipTask } from "./compress.ts";

const scope = self as unknown as Worker;
scope.onmessage = ({ data: { id, page } }: MessageEvent<GzipTask>) => {
  const bytes = gzipNow(page);
  scope.postMessage({ id, bytes } satisfies GzipDone, [bytes.buffer]);
};
