/**
 * Browser side of the islands of one file in client/islands: hydrates every server-rendered copy
 * of each component the file exports. The build writes the call for each file.
 */
import { type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import type { IslandComponent } from "./island.tsx";
import { nextTask } from "./next-task.ts";

/** Marks the island `data-ready` once hydrated, so a test (or a style) can tell it is live. */
function Ready({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => root.setAttribute("data-ready", ""), [root]);
  return children;
}

/**
 * Each island hydrates in a task of its own (client/wake.ts runs the modules the same way), so
 * waking a page never holds the main thread for long: a slow phone still answers a tap at once.
 */
export async function hydrateIslands(file: string, islands: Record<string, unknown>) {
  for (const [name, island] of Object.entries(islands)) {
    const Component = island as IslandComponent<object>;
    for (const root of document.querySelectorAll<HTMLElement>(`[data-island="${file}:${name}"]`)) {
      const source = document.getElementById(root.dataset.props ?? "");
      if (!source?.textContent) continue;
      const sent = JSON.parse(source.textContent) as object;
      const props = Component.revive?.(sent, root) ?? sent;
      await nextTask();
      hydrateRoot(
        root,
        <Ready root={root}>
          <Component {...props} />
        </Ready>,
      );
    }
  }
}
