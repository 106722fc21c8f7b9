/**
 * Server side of an island: the component's HTML plus its props in a JSON script element that is
 * never executed. An island is any component exported by a file in client/islands; the build makes
 * that file a browser script which hydrates it, and the first island of each file on a page writes
 * that script's tag, so a page loads the scripts of the islands it rendered and no others.
 */
import { type ComponentType, createContext, use, useId } from "react";
import { jsonForScript } from "./json.ts";

/** What the page knows of islands while it renders, one per render (routes/pages/render.ts). */
export interface IslandScripts {
  /** The island `component` is (`file:export`) and its file's script URL, if it is one. */
  find(component: unknown): { id: string; script: string } | undefined;
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
}

export function Island<P extends object>(
  { component: Component, props, sent = props }: IslandProps<P>,
) {
  const propsId = `${useId()}props`;
  const scripts = use(IslandScriptsContext);
  const island = scripts?.find(Component);
  if (!scripts || !island) {
    throw new Error(`${Component.name} is not exported by a file in client/islands`);
  }
  const first = !scripts.written.has(island.script);
  scripts.written.add(island.script);
  return (
    <>
      <script
        type="application/json"
        id={propsId}
        // deno-lint-ignore react-no-danger -- jsonForScript escapes every `<`, `>` and `&`
        dangerouslySetInnerHTML={{ __html: jsonForScript(sent) }}
      />
      <div className="island" data-island={island.id} data-props={propsId}>
        <Component {...props} />
      </div>
      {first && <script type="module" src={island.script} nonce={scripts.nonce} />}
    </>
  );
}
