import { pass, type WebValidation } from "../types";
import { domAt, domCheck, metaByName } from "./_helpers";
import { quote } from "../shared/quote";

export const metaDescription: WebValidation = {
  meta: domCheck({
    id: "meta-description",
    name: "Meta description present",
    category: "seo",
    severity: "minor",
    summary: 'The page has a non-empty <meta name="description">.',
    judgment: 'Fails when there is no <meta name="description">, or its content is empty or only white space.',
    references: [
      {
        title: "Google Search Central: meta descriptions",
        url: "https://developers.google.com/search/docs/appearance/snippet",
      },
    ],
  }),
  evaluate(artifacts) {
    const metas = metaByName(domAt(artifacts), "description");
    const filled = metas.find((m) => (m.content ?? "").trim());
    if (filled) return pass(`The meta description is ${quote(filled.content!.trim())}.`);
    const reason = metas.length
      ? 'Write a summary of the page in the empty <meta name="description"> content'
      : 'Add <meta name="description" content="…"> to <head> with a one or two sentence summary of the page';
    return {
      verdict: "fail",
      reason,
      reasoning: metas.length
        ? "A meta description exists but its content is empty."
        : "The page has no meta description.",
      findings: [{ message: metas.length ? "Empty meta description" : "No meta description", selector: "head" }],
    };
  },
};
