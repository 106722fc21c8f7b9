/** Browser side of an island: hydrates every server-rendered copy of one island on the page. */
import { type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { dropBrokenLogos } from "./logos.ts";

// Once per page: every island bundle shares this module.
dropBrokenLogos();

/** Marks the island `data-ready` once hydrated, so a test (or a style) can tell it is live. */
function Ready({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => root.setAttribute("data-ready", ""), [root]);
  return children;
}

/** `render` gets the island's props and its root, to read back what the props left out. */
export function hydrateIslands<P>(
  name: string,
  render: (props: P, root: HTMLElement) => ReactNode,
) {
  for (const root of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const source = document.getElementById(root.dataset.props ?? "");
    if (!source?.textContent) continue;
    const props = JSON.parse(source.textContent) as P;
    hydrateRoot(root, <Ready root={root}>{render(props, root)}</Ready>);
  }
}
