/** One of Assay's own axe-core rules (index.ts adds them to axe); its functions run in the page, serialised. */
export interface AssayAxeRule {
  id: string;
  selector: string;
  tags: string[];
  impact: "minor" | "moderate" | "serious" | "critical";
  /** Whether axe also runs it on elements that are not rendered (axe's default: it does not). */
  includeHidden?: boolean;
  /** The W3C ACT rule it implements. */
  actId: string;
  description: string;
  help: string;
  messages: { pass: string; fail: string; incomplete: string };
  /** Whether the rule applies to an element the selector found. */
  matches(node: Element): boolean;
  /** true: passes; false: fails; undefined: needs review. `this.data` gives the messages their `${data.…}`. */
  evaluate(this: { data(d: unknown): void }, node: Element): boolean | undefined;
}
