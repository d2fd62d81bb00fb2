import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

/** Checks JSON-LD blocks parse and name a schema.org type; pages without structured data pass. */
function problemsIn(node: unknown, path: string, problems: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => {
      problemsIn(n, `${path}[${i}]`, problems);
    });
  } else if (!node || typeof node !== "object") {
    problems.push(`${path} is not an object`);
  } else {
    const o = node as Record<string, unknown>;
    if (Array.isArray(o["@graph"])) problemsIn(o["@graph"], `${path}.@graph`, problems);
    else if (!o["@type"]) problems.push(`${path} has no @type`);
  }
}

export const structuredDataValid: WebValidation = {
  meta: domCheck({
    id: "structured-data-valid",
    name: "Structured data is valid JSON-LD",
    category: "seo",
    severity: "minor",
    summary: "Every JSON-LD block parses and names a schema.org @type with an @context.",
    judgment:
      'Fails when a <script type="application/ld+json"> is not valid JSON, lacks @context (at the top level), or holds an item without @type. Pages without structured data pass.',
    references: [
      {
        title: "Google: structured data guidelines",
        url: "https://developers.google.com/search/docs/appearance/structured-data/sd-policies",
      },
    ],
  }),
  evaluate(artifacts) {
    const blocks = domAt(artifacts).jsonLd;
    if (blocks.length === 0) return pass("The page has no JSON-LD structured data.");
    const findings = [];
    for (const [i, text] of blocks.entries()) {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (e) {
        findings.push({
          message: `JSON-LD block ${i + 1} is not valid JSON: ${(e as Error).message}`,
          selector: `script[type="application/ld+json"]:nth-of-type(${i + 1})`,
        });
        continue;
      }
      const problems: string[] = [];
      const top = Array.isArray(data) ? data : [data];
      if (top.some((t) => !t || typeof t !== "object" || !(t as Record<string, unknown>)["@context"]))
        problems.push("a top-level item has no @context");
      problemsIn(data, "$", problems);
      for (const p of problems)
        findings.push({ message: `JSON-LD block ${i + 1}: ${p}`, selector: `script[type="application/ld+json"]` });
    }
    if (findings.length === 0) return pass(`${blocks.length} JSON-LD block(s) parse and name their @type.`);
    return {
      verdict: "fail",
      reason: `Fix the structured data: ${findings[0]!.message}${findings.length > 1 ? ` (+${findings.length - 1} more)` : ""}`,
      reasoning: `${findings.length} problem(s) in ${blocks.length} JSON-LD block(s).`,
      findings,
    };
  },
};
