/**
 * Server side of an island: the component's HTML plus its props in a JSON script element that is
 * never executed. An island is any component exported by a file in client/islands; the build makes
 * that file a browser script which hydrates it. A page runs one script while it loads,
 * client/wake.ts, which fetches the scripts of the islands the page rendered (and no others) once
 * the visitor uses the page, and runs them when the browser is idle or the visitor reaches for an
 * island: React's runtime is neither fetched nor evaluated while the page loads.
 */
import { type ComponentType, createContext, use, useId } from "react";
import { jsonForScript } from "./json.ts";

/** What the page knows of islands while it renders, one per render (routes/pages/render.ts). */
export interface IslandScripts {
  /**
   * The island `component` is (`file:export`), its file's script URL and the URLs that script
   * imports, if it is one.
   */
  find(component: unknown): { id: string; script: string; imports: string[] } | undefined;
  /** The script that wakes the islands (client/wake.ts). */
  waker: string;
  /** Script URLs already written into this page. */
  written: Set<string>;
  nonce?: string;
}

export const IslandScriptsContext = createContext<IslandScripts | null>(null);

/**
 * An island whose props were only partly sent (`sent`) rebuilds the rest from its server HTML
 * with `revive`, in the browser, before hydrating.
 */
export type IslandComponent<P> = ComponentType<P> & {
  revive?: (sent: Partial<P>, root: HTMLElement) => P;
};

interface IslandProps<P extends object> {
  component: IslandComponent<P>;
  props: P;
  /** What the browser needs of `props`, when it can read the rest back from the HTML. */
  sent?: Partial<P>;
  /** Wakes as the page loads: for an island that is the page's content, useless asleep. */
  eager?: boolean;
}

export function Island<P extends object>(
  { component: Component, props, sent = props, eager }: IslandProps<P>,
) {
  const propsId = `${useId()}props`;
  const scripts = use(IslandScriptsContext);
  const island = scripts?.find(Component);
  if (!scripts || !island) {
    throw new Error(`${Component.name} is not exported by a file in client/islands`);
  }
  // The first island of a file names what its script needs, for client/wake.ts to fetch.
  const firstOfFile = !scripts.written.has(island.script);
  scripts.written.add(island.script);
  const firstIsland = !scripts.written.has(scripts.waker);
  scripts.written.add(scripts.waker);
  return (
    <>
      <script
        type="application/json"
        id={propsId}
        // deno-lint-ignore react-no-danger -- jsonForScript escapes every `<`, `>` and `&`
        dangerouslySetInnerHTML={{ __html: jsonForScript(sent) }}
      />
      <div
        className="island"
        data-island={island.id}
        data-props={propsId}
        data-script={island.script}
        data-preload={firstOfFile ? [island.script, ...island.imports].join(" ") : undefined}
        data-wake={eager ? "load" : undefined}
      >
        <Component {...props} />
      </div>
      {firstIsland && <script type="module" src={scripts.waker} nonce={scripts.nonce} />}
    </>
  );
}
