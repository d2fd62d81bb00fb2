import type { EmailValidation, Finding } from "../types";
import { findingAt, quote, renderCheck, rendersFor, where } from "./_renders";

/** Below 3:1 text is hard to read for most readers (WCAG's floor for large text); color-contrast-style AA checks are separate. */
const MIN_CONTRAST = 3;

export const emailDarkModeLegible: EmailValidation = {
  meta: renderCheck({
    id: "email-dark-mode-legible",
    name: "Email legible in dark mode",
    category: "visual",
    severity: "major",
    standard: ["mobile-sm"],
    dark: true,
    summary: "In dark mode every line of text still stands out from what is behind it.",
    judgment:
      "The message is rendered in dark mode in each selected client (by default Apple Mail on iPhone, dark; a client with a dark variant in the catalog is rendered as that variant), the way that client darkens messages: Apple Mail applies the message's prefers-color-scheme styles and, when the message declares dark support or sets no colours, its dark canvas and light default text; Gmail and Outlook invert colours partly or fully. Fails when visible text (6px or larger) has less than 3:1 contrast against the background composited under it (background images are blocked, so they do not count), naming each such text.",
    references: [
      {
        title: "caniemail: prefers-color-scheme",
        url: "https://www.caniemail.com/features/css-at-media-prefers-color-scheme/",
      },
      {
        title: "WCAG 2.2 SC 1.4.3 Contrast (Minimum)",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum",
      },
    ],
  }),
  evaluate(email) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    const findings: Finding[] = [];
    for (const r of renders.ok) {
      for (const t of r.snapshot.textBlocks) {
        if (t.fontSizePx < 6 || t.contrast >= MIN_CONTRAST) continue;
        findings.push(
          findingAt(r, {
            message: `${r.client.name}: ${t.contrast.toFixed(2)}:1 for ${quote(t.text, 50)} (rgb ${t.color.join(",")} on rgb ${t.background.join(",")})`,
            selector: t.selector,
            text: t.text,
            measured: { contrast: t.contrast, color: t.color, background: t.background },
          }),
        );
      }
    }
    const seen = renders.ok.map((r) => `${where(r)}${r.dark ? "" : " (light: the client does not darken)"}`).join(", ");
    if (findings.length === 0)
      return {
        verdict: "pass",
        reasoning: `Every visible text has at least ${MIN_CONTRAST}:1 contrast in ${seen}.`,
        findings: [],
      };
    const worst = [...findings].sort((a, b) => (a.measured!.contrast as number) - (b.measured!.contrast as number))[0]!;
    return {
      verdict: "fail",
      reason: `${findings.length} text(s) unreadable in dark mode; worst ${worst.message.split(": ").slice(1).join(": ")} (${worst.selector}): give that text a colour for dark mode (prefers-color-scheme styles) or a background of its own`,
      reasoning: `Composited text and background colours of ${renders.ok.length} dark render(s) (${seen}): ${findings.length} text(s) below ${MIN_CONTRAST}:1.`,
      findings: findings.slice(0, 30),
    };
  },
};
