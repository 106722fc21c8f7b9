/**
 * The thread share images are drawn on (started by server/share-image-drawer.ts): resvg
 * (WebAssembly) and the DejaVu fonts load once, from the files the build copies, then each SVG
 * comes back as a PNG whose bytes are handed over rather than copied.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import type { FromDrawingThread, ToDrawingThread } from "./share-image-drawer.ts";

let fontBuffers: Uint8Array[] = [];

function reply(message: FromDrawingThread, transfer: Transferable[] = []) {
  postMessage(message, { transfer });
}

async function load(files: { wasm: string; fonts: string[] }) {
  const [wasm, ...fonts] = await Promise.all(
    [files.wasm, ...files.fonts].map((file) => Deno.readFile(new URL(file))),
  );
  await initWasm(wasm);
  fontBuffers = fonts;
}

function draw(svg: string): ArrayBuffer {
  const resvg = new Resvg(svg, {
    font: { fontBuffers, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
  });
  try {
    const image = resvg.render();
    try {
      return new Uint8Array(image.asPng()).buffer;
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

addEventListener("message", async (event: MessageEvent<ToDrawingThread>) => {
  const message = event.data;
  if ("files" in message) {
    try {
      await load(message.files);
      reply({ ready: true });
    } catch (error) {
      reply({ failed: String(error) });
    }
    return;
  }
  try {
    const png = draw(message.svg);
    reply({ id: message.id, png }, [png]);
  } catch (error) {
    // A trap leaves resvg's memory in no known state: the drawer then starts a new worker.
    reply({
      id: message.id,
      error: String(error),
      broken: error instanceof WebAssembly.RuntimeError,
    });
  }
});
