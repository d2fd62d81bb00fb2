import type { EmailValidation, Finding } from "../types";
import { because, explained, renderCheck, rendersFor, where } from "./_renders";
import { quote } from "../shared/quote";

export const emailLayoutNotBroken: EmailValidation = {
  meta: renderCheck({
    id: "email-layout-not-broken",
    name: "Email layout not broken",
    category: "visual",
    severity: "major",
    standard: ["mobile-sm", "desktop-md"],
    summary: "In each mail client rendered, no text overlaps other text and no embedded image is broken.",
    judgment:
      "The message is rendered in each selected mail client (by default the native client at mobile-sm and desktop-md), after that client's sanitizer. Fails when, in any render, the visible text of two unrelated elements (its glyphs' ink height, not the font's taller content box) overlaps by 4px or more in both directions (negative margins, absolute positioning, fixed heights or line heights too small for the text), or when an image embedded in the message (a data: URI) does not decode. Remote images are blocked in every render and do not count here; email-images-off-readable judges the message without them. When what the client's profile did to the message (a declaration, rule, media query or style block it dropped, Word's layout limits) applied to an overlapping element or its ancestors and bears on layout, the reason cites it with its rule and source.",
    references: [{ title: "caniemail.com: HTML and CSS support in email clients", url: "https://www.caniemail.com/" }],
  }),
  evaluate(email) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    const findings: Finding[] = [];
    for (const r of renders.ok) {
      for (const o of r.layout.textOverlaps) {
        findings.push(
          explained(
            r,
            {
              message: `${r.client.name}: ${quote(o.textA, 40)} overlaps ${quote(o.textB, 40)} by ${o.width}×${o.height}px`,
              selector: `${o.a} ↔ ${o.b}`,
              measured: { width: o.width, height: o.height },
            },
            [o.a, o.b],
            "overlap",
          ),
        );
      }
      for (const img of r.snapshot.images) {
        if (img.source === "data" && img.shown && !img.loaded)
          findings.push(
            explained(
              r,
              { message: `${r.client.name}: an embedded image does not decode`, selector: img.selector, url: img.url },
              [img.selector],
              "image",
            ),
          );
      }
    }
    const seen = renders.ok.map(where).join(", ");
    if (findings.length === 0)
      return {
        verdict: "pass",
        reasoning: `Rendered in ${seen}: no overlapping text and no broken embedded image.`,
        findings: [],
      };
    const first = findings[0]!;
    return {
      verdict: "fail",
      reason: `Fix ${findings.length} layout fault(s); first at ${first.viewport}: ${first.message} (${first.selector})${because(findings)}`,
      reasoning: `Measured the text boxes and embedded images of ${renders.ok.length} render(s) (${seen}): ${findings.length} fault(s).`,
      findings,
    };
  },
};
