/** Browser side of an island: hydrates every server-rendered copy of one island on the page. */
import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";

export function hydrateIslands<P>(name: string, render: (props: P) => ReactNode) {
  for (const root of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const source = document.getElementById(root.dataset.props ?? "");
    if (!source?.textContent) continue;
    hydrateRoot(root, render(JSON.parse(source.textContent) as P));
  }
}
