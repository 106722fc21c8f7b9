/** The benchmark's yardstick: a bare Hono hello-world, served the way main.ts serves the app. */
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("Hello, World!"));

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`Hello world is running at http://127.0.0.1:${port}/`),
}, app.fetch);
