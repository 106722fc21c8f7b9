/**
 * The development build's tools, kept warm in `deno task dev`'s process (server/dev.ts): Tailwind's
 * compiler for the stylesheet, where the production build runs Tailwind's CLI (the same output,
 * byte for byte), and esbuild's incremental contexts for the script bundles, where it runs
 * `deno bundle` (the same esbuild, with the JSX settings of deno.json). A change costs a tenth of a
 * second of Tailwind and a third of esbuild rather than a process start each and a whole bundle.
 */
import * as esbuild from "esbuild";
import { compile } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";
import type { ScriptSet } from "./build.ts";

type Context = esbuild.BuildContext<{ write: false }>;

export class DevBundler {
  /**
   * One per set of scripts (the islands, the admin app), made for its entries: esbuild keeps what
   * did not change. An island added or removed makes its set's context anew.
   */
  private readonly contexts = new Map<ScriptSet, { entries: string; context: Promise<Context> }>();

  constructor(private readonly root: string) {}

  /**
   * Writes `styles.css` into `dist`. Compiled afresh each time (the input's @import and @source
   * lines may have changed too): Tailwind reads the class names of the sources in a few dozen ms.
   */
  async styles(dist: string): Promise<void> {
    const base = `${this.root}client`;
    const compiler = await compile(await Deno.readTextFile(`${base}/styles.css`), {
      base,
      onDependency() {},
    });
    const scanner = new Scanner({ sources: compiler.sources });
    await Deno.writeTextFile(`${dist}/styles.css`, compiler.build(scanner.scan()));
  }

  /** Bundles `set`'s `entries` (paths from the root) into `outdir`, as `deno bundle` lays them out. */
  async scripts(set: ScriptSet, outdir: string, entries: string[]): Promise<void> {
    const key = entries.join("\n");
    const kept = this.contexts.get(set);
    let context = kept?.entries === key ? kept.context : undefined;
    if (!context) {
      if (kept) await (await kept.context).dispose();
      context = esbuild.context({
        absWorkingDir: this.root,
        entryPoints: entries,
        // Written by us, into each build's own folder: this one only places the outputs.
        outdir: `${this.root}client/.dev-bundle`,
        write: false,
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        jsx: "automatic",
        jsxImportSource: "react",
        define: { "process.env.NODE_ENV": '"development"' },
        logLevel: "silent",
      });
      this.contexts.set(set, { entries: key, context });
    }
    const { outputFiles } = await (await context).rebuild();
    const placed = `${this.root}client/.dev-bundle/`;
    for (const file of outputFiles) {
      const target = `${outdir}/${file.path.slice(placed.length)}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeFile(target, file.contents);
    }
  }

  async close(): Promise<void> {
    for (const { context } of this.contexts.values()) await (await context).dispose();
    this.contexts.clear();
    await esbuild.stop();
  }
}
