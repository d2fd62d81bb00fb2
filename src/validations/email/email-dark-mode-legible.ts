import type { EmailValidation, Finding } from "../types";
import type { EmailRender } from "../../capture/mail-clients/render";
import { because, explained, renderCheck, rendersFor, where } from "./_renders";
import { quote } from "../shared/quote";

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
      "The message is rendered in dark mode in each selected client (by default Apple Mail on iPhone, dark; a client with a dark variant in the catalog is rendered as that variant), the way that client darkens messages: Apple Mail applies the message's prefers-color-scheme styles and, when the message declares dark support or sets no colours, its dark canvas and light default text; Gmail and Outlook invert colours partly or fully. Fails when visible text (6px or larger) has less than 3:1 contrast against the background composited under it (background images are blocked, so they do not count), naming each such text Each dark render says how it was produced: a forced inversion of the message's colours (full or partial: Gmail apps, Outlook.com and the Outlook apps, Outlook for Windows, Samsung Email), which the sender cannot switch off, or the message's own prefers-color-scheme styles (Apple Mail). The reason tells which the sender must fix: text below 3:1 in light mode too needs its colour fixed in both modes; otherwise the message's dark styles (prefers-color-scheme) or colours that survive inversion. When what the client's profile did to the message (a colour, a prefers-color-scheme query, a rule or style block it dropped) applied to that text or its ancestors, the reason cites it with its rule and source.",
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
        const cause = causeOf(r, t.lightContrast);
        findings.push(
          explained(
            r,
            {
              message: `${r.client.name}: ${t.contrast.toFixed(2)}:1 for ${quote(t.text, 50)} (rgb ${t.color.join(",")} on rgb ${t.background.join(",")})${t.lightContrast !== undefined ? `, ${t.lightContrast.toFixed(2)}:1 in light mode` : ""}`,
              selector: t.selector,
              text: t.text,
              measured: {
                contrast: t.contrast,
                color: t.color,
                background: t.background,
                ...(t.lightContrast !== undefined ? { lightContrast: t.lightContrast } : {}),
                darkMode: r.darkMode?.method ?? "none",
                ...(r.darkMode && "extent" in r.darkMode ? { extent: r.darkMode.extent } : {}),
                cause,
              },
            },
            [t.selector],
            "colour",
          ),
        );
      }
    }
    const seen = renders.ok.map((r) => `${where(r)} (${howDark(r)})`).join(", ");
    if (findings.length === 0)
      return {
        verdict: "pass",
        reasoning: `Every visible text has at least ${MIN_CONTRAST}:1 contrast in ${seen}.`,
        findings: [],
      };
    const byContrast = (a: Finding, b: Finding) => (a.measured!.contrast as number) - (b.measured!.contrast as number);
    // The reason ends on the last cause's worst text: a change that explains it is cited right there.
    let named: Finding | null = null;
    const fixes = CAUSES.flatMap((cause) => {
      const own = findings.filter((f) => f.measured!.cause === cause).sort(byContrast);
      if (own.length === 0) return [];
      const worst = own[0]!;
      named = worst;
      const at = `${worst.message.split(": ").slice(1).join(": ")} (${worst.selector})`;
      return [`${FIX[cause](own.length, worst)}; worst ${at}`];
    });
    const worst = [...findings].sort(byContrast);
    return {
      verdict: "fail",
      reason: `${findings.length} text(s) unreadable in dark mode. ${fixes.join(". ")}${because(worst, named)}`,
      reasoning: `Composited text and background colours of ${renders.ok.length} dark render(s) (${seen}): ${findings.length} text(s) below ${MIN_CONTRAST}:1.`,
      findings: findings.sort(byContrast).slice(0, 30),
    };
  },
};

/**
 * What the sender must fix for one unreadable text: its colour itself, when it is as unreadable in light mode;
 * else whatever darkened it, the client's forced inversion or the message's own prefers-color-scheme styles.
 */
type Cause = "colour" | "prefers-color-scheme" | "forced-inversion";
const CAUSES: Cause[] = ["colour", "prefers-color-scheme", "forced-inversion"];

function causeOf(r: EmailRender, lightContrast: number | undefined): Cause {
  if (!r.darkMode || r.darkMode.method === "none" || !r.dark) return "colour";
  if (lightContrast !== undefined && lightContrast < MIN_CONTRAST) return "colour";
  return r.darkMode.method;
}

const clients = (f: Finding) => f.message.split(": ")[0];

const FIX: Record<Cause, (n: number, worst: Finding) => string> = {
  colour: (n, worst) =>
    `${n} text(s) are as unreadable in light mode as in dark (${clients(worst)}): fix the colour itself, in both modes, not a dark-mode colour`,
  "prefers-color-scheme": (n, worst) =>
    `${n} text(s) unreadable in the message's own dark mode in ${clients(worst)}, which applies its color-scheme declaration and prefers-color-scheme styles: give that text a light colour in the @media (prefers-color-scheme: dark) block, or a background of its own there`,
  "forced-inversion": (n, worst) =>
    `${n} text(s) made unreadable by ${clients(worst)}'s forced colour inversion, which ignores the message's dark styles: pick text and background colours that stay apart when their lightness is inverted (a saturated background such as yellow keeps its lightness while black text on it turns white), set both on the same element, and do not put text over a background image`,
};

/** One render's dark-mode method, as the reasoning names it. */
function howDark(r: EmailRender): string {
  const d = r.darkMode;
  if (!r.dark || !d) return "light: the client does not darken";
  if (d.method === "forced-inversion") return `forced inversion, ${d.extent}`;
  if (d.method === "prefers-color-scheme")
    return d.darkened ? "its prefers-color-scheme styles, darkened" : "its prefers-color-scheme styles, shown light";
  return "shown as sent: the client does not darken";
}
