/**
 * Server side of an island: the component's HTML plus its props in a JSON script element that is
 * never executed. The browser bundle of the same name (client/islands/{name}.tsx) hydrates it.
 */
import type { ComponentType } from "react";
import { useId } from "react";
import { jsonForScript } from "./json.ts";

interface IslandProps<P extends object> {
  name: string;
  component: ComponentType<P>;
  props: P;
  /** What the browser needs of `props`, when it can read the rest back from the HTML. */
  sent?: Partial<P>;
}

export function Island<P extends object>(
  { name, component: Component, props, sent = props }: IslandProps<P>,
) {
  const propsId = `${useId()}props`;
  return (
    <>
      <script
        type="application/json"
        id={propsId}
        // deno-lint-ignore react-no-danger -- jsonForScript escapes every `<`, `>` and `&`
        dangerouslySetInnerHTML={{ __html: jsonForScript(sent) }}
      />
      <div className="island" data-island={name} data-props={propsId}>
        <Component {...props} />
      </div>
    </>
  );
}
