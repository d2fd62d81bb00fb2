import { pass, type WebValidation } from "../types";
import { domAt, domCheck, metaByName } from "./_helpers";

export const viewportMeta: WebValidation = {
  meta: domCheck({
    id: "viewport-meta",
    name: "Responsive viewport declared",
    category: "mobile",
    severity: "major",
    summary: 'A <meta name="viewport"> with width=device-width is present.',
    judgment:
      'Fails when no <meta name="viewport"> (name matched exactly, any case) has content containing width=device-width. A misspelled name counts as missing.',
    references: [
      { title: "MDN: viewport meta tag", url: "https://developer.mozilla.org/en-US/docs/Web/HTML/Viewport_meta_tag" },
    ],
  }),
  evaluate(artifacts) {
    const metas = metaByName(domAt(artifacts), "viewport");
    const good = metas.find((m) => /width\s*=\s*device-width/i.test(m.content ?? ""));
    if (good) return pass(`<meta name="viewport" content="${good.content}"> is present.`);
    return {
      verdict: "fail",
      reason:
        'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to <head> so phones lay the page out at their width',
      reasoning: metas.length
        ? `A viewport meta exists but its content (${metas.map((m) => JSON.stringify(m.content)).join(", ")}) lacks width=device-width.`
        : 'No <meta name="viewport"> in the page.',
      findings: [
        { message: metas.length ? "Viewport meta without width=device-width" : "No viewport meta", selector: "head" },
      ],
    };
  },
};
