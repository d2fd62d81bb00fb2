/**
 * axe's own evaluate of the check an override stands in for, called with the override's `this` unless another context
 * is given (to read what axe's check found before it is reported).
 */
export type AxeCheckEvaluate = (
  node: Element,
  options: any,
  virtualNode: any,
  context?: AxeCheckContext,
) => boolean | undefined;

/**
 * The `this` axe gives a check's evaluate: what the check found (`data`, read by its messages) and where; `async`
 * makes the check answer later, through the function it returns.
 */
export interface AxeCheckContext {
  data(data: unknown): void;
  relatedNodes(nodes: Element[]): void;
  async(): (result: boolean | undefined) => void;
}

/**
 * One of Assay's checks taking the place of an axe-core check in every axe rule that runs it (index.ts swaps it in):
 * it decides on principle some of what axe's check passes, fails or leaves for review, and asks axe's check
 * (`axeCheck`) about the rest. `evaluate` runs in the page, serialised: self-contained.
 */
export interface AxeCheckOverride {
  /** The axe-core check it stands in for. */
  replaces: string;
  evaluate(
    this: AxeCheckContext,
    axeCheck: AxeCheckEvaluate,
    node: Element,
    options: any,
    virtualNode: any,
  ): boolean | undefined;
  /** Messages for Assay's own decisions, by the messageKey its evaluate gives `this.data`; axe's stay beside them. */
  messages?: { pass?: Record<string, string>; fail?: Record<string, string> };
}

/** The id Assay's check has in axe. */
export const overrideId = (o: AxeCheckOverride) => `assay-${o.replaces}`;

/** The script (run after axe-core loads) that adds the overrides' checks and puts them in axe's rules in place of axe's. */
export function checkOverridesScript(overrides: readonly AxeCheckOverride[]): string {
  const checks = overrides.map((o) => {
    const replaced = JSON.stringify(o.replaces);
    return `{ id: ${JSON.stringify(overrideId(o))}, options: axe._audit.checks[${replaced}].options, metadata: withMessages(axe._audit.data.checks[${replaced}], ${JSON.stringify(o.messages ?? {})}), evaluate: function (node, options, virtualNode) { const axeCheck = axe._audit.checks[${replaced}].evaluate; return (${o.evaluate.toString()}).call(this, (n, o, v, context = this) => axeCheck.call(context, n, o, v), node, options, virtualNode); } }`;
  });
  const swaps = JSON.stringify(Object.fromEntries(overrides.map((o) => [o.replaces, overrideId(o)])));
  return `(() => {
  const swaps = ${swaps};
  const withMessages = (data, ours) => {
    const messages = { ...data.messages };
    for (const [type, keyed] of Object.entries(ours)) {
      const theirs = messages[type];
      messages[type] = { ...(typeof theirs === "string" ? { default: theirs } : theirs), ...keyed };
    }
    return { ...data, messages };
  };
  const swap = (c) => (typeof c === "string" ? swaps[c] ?? c : { ...c, id: swaps[c.id] ?? c.id });
  const uses = (r) => [...r.any, ...r.all, ...r.none].some((c) => swaps[typeof c === "string" ? c : c.id]);
  axe.configure({
    checks: [${checks.join(", ")}],
    rules: axe._audit.rules.filter(uses).map((r) => ({ id: r.id, any: r.any.map(swap), all: r.all.map(swap), none: r.none.map(swap) })),
  });
})();`;
}
