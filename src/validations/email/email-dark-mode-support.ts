import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf } from "./_helpers";

export const emailDarkModeSupport: EmailValidation = {
  meta: htmlCheck({
    id: "email-dark-mode-support",
    name: "Dark mode declared",
    category: "visual",
    severity: "minor",
    summary: "The HTML declares its dark-mode support: a color-scheme meta or prefers-color-scheme styles.",
    judgment:
      'Fails when the HTML part has none of: <meta name="color-scheme">, <meta name="supported-color-schemes">, or a CSS @media (prefers-color-scheme: …) block in a <style> element. Without them, clients that invert colours (Outlook, Gmail apps) guess, and often get logos and buttons wrong. A message without an HTML part passes.',
    references: [
      {
        title: "Litmus: The ultimate guide to dark mode for email marketers",
        url: "https://www.litmus.com/blog/the-ultimate-guide-to-dark-mode-for-email-marketers",
      },
      {
        title: "Can I email: prefers-color-scheme",
        url: "https://www.caniemail.com/features/css-at-media-prefers-color-scheme/",
      },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "plain text has no colours to adapt.");
    if ("outcome" in got) return got.outcome;
    const { colorSchemeMetas, prefersColorSchemeRules } = got.dom;
    const found = [
      ...colorSchemeMetas.map((m) => `<meta name="${m.name}" content="${m.content}">`),
      ...prefersColorSchemeRules.map((r) => `@media ${r}`),
    ];
    if (found.length) return pass(`Dark mode is declared: ${found.join("; ")}.`);
    return {
      verdict: "fail",
      reason:
        'Declare dark-mode support in <head>: <meta name="color-scheme" content="light dark"> and <meta name="supported-color-schemes" content="light dark">, plus a <style> block with @media (prefers-color-scheme: dark) { … } giving dark backgrounds and light text',
      reasoning:
        "The HTML part has no color-scheme or supported-color-schemes meta and no prefers-color-scheme media query.",
      findings: [{ message: "No color-scheme meta and no prefers-color-scheme styles", selector: "head" }],
    };
  },
};
