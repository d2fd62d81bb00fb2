import type { EmailValidation, Finding } from "../types";
import { because, explain, explained, findingAt, renderCheck, rendersFor, where } from "./_renders";

export const emailMobileResponsive: EmailValidation = {
  meta: renderCheck({
    id: "email-mobile-responsive",
    name: "Email fits a phone screen",
    category: "mobile",
    severity: "major",
    standard: ["mobile-sm"],
    summary: "On a phone (375px) the message is no wider than the screen, so nobody scrolls sideways to read it.",
    judgment:
      "The message is rendered at mobile-sm in each selected client (by default Apple Mail on iPhone), laid out 375 CSS pixels wide with no device scaling and no shrink-to-fit, after the client's sanitizer (so media queries a client strips do not help there). Fails when the rendered document is wider than the client's width (document.documentElement.scrollWidth > 375), naming the outermost elements that stick out. A client selected at another form factor is held to its own width. When what the client's profile did to the message (a media query, rule, style block or width it dropped) applied to an element that sticks out or its ancestors, the reason cites it with its rule and source.",
    references: [{ title: "WCAG 2.2 SC 1.4.10 Reflow", url: "https://www.w3.org/WAI/WCAG22/Understanding/reflow" }],
  }),
  evaluate(email) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    const findings: Finding[] = [];
    const wide = renders.ok.filter((r) => r.layout.documentWidth > r.client.width);
    for (const r of wide) {
      const culprits = r.layout.overflowing.slice(0, 4);
      // The message's width is explained by what the client did to the elements that stick out.
      const why = explain(
        r,
        culprits.map((c) => c.selector),
        "width",
      );
      findings.push(
        findingAt(r, {
          message: `${r.client.name}: the message is ${r.layout.documentWidth}px wide on a ${r.client.width}px screen`,
          measured: {
            scrollWidth: r.layout.documentWidth,
            width: r.client.width,
            ...(why.length ? { explainedBy: why } : {}),
          },
        }),
      );
      for (const c of culprits)
        findings.push(
          explained(
            r,
            {
              message: `${c.width}px wide, right edge at ${c.right}px`,
              selector: c.selector,
              measured: { right: c.right, width: c.width },
            },
            [c.selector],
            "width",
          ),
        );
    }
    if (wide.length === 0) {
      return {
        verdict: "pass",
        reasoning: `No sideways scrolling: ${renders.ok.map((r) => `${where(r)} ${r.layout.documentWidth}px wide`).join("; ")}.`,
        findings: [],
      };
    }
    const r = wide[0]!;
    const culprit = r.layout.overflowing[0]?.selector ?? "the widest element";
    return {
      verdict: "fail",
      reason: `In ${r.client.name} at ${r.client.width}px the message is ${r.layout.documentWidth}px wide; make ${culprit} fit (a fluid width: width:100% with max-width, or a media query the client keeps)${because(findings)}`,
      reasoning: `scrollWidth > client width in ${wide.map((w) => `${where(w)}: ${w.layout.documentWidth}px`).join("; ")}.`,
      findings,
    };
  },
};
