import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorCatalog } from "../errors/catalog";
import { validationModules } from "../catalog/registry";
import { validationSets } from "../catalog/sets";
import { rendersOfClient } from "../catalog/email-client-examples";
import { EMAIL_CLIENTS, findEmailClient, nativeDefault, renderTargets } from "../catalog/email-clients";
import { CREDITS_PER_RENDER, EXTRA_CREDITS_PER_RENDER } from "../catalog/render-pricing";
import { priceJob } from "../domain/pricing";
import { profileOf } from "../capture/mail-clients/profiles";
import { RULE_SOURCES } from "../capture/mail-clients/rule-sources";
import { MAX_CHANGES } from "../capture/mail-clients/sanitize-record";
import { DEFAULT_RENDER_LIMITS } from "../capture/mail-clients/render";
import { configurationMarkdown } from "./configuration-md";
import { apiMarkdown } from "./api-md";

/** docs/errors.md, from the one error table. */
function errorsMarkdown(): string {
  const rows = errorCatalog.map(
    (e) =>
      `| \`${e.code}\` | ${e.status} | ${e.title} | ${e.guidance.replace(/\|/g, "\\|")}${e.addedBySpecGap ? " *(added by Assay)*" : ""} |`,
  );
  return [
    "# Error codes",
    "",
    "<!-- Generated from src/errors/catalog.ts by `npm run docs`; do not edit by hand. -->",
    "",
    "Every error body is `{ code, title, message, developerMessage, details?, requestId }`; 5xx bodies add `retryable`.",
    "Branch on `code`: it is stable; the prose may change. `GET /api/errors` serves this table.",
    "",
    "| Code | HTTP | Title | What to do |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** docs/validations.md, from the validation modules and sets. */
function validationsMarkdown(): string {
  const out = [
    "# Validations",
    "",
    "<!-- Generated from the validation modules by `npm run docs`; do not edit by hand. -->",
    "",
    "| Id | Subject | Kind | Severity | Credits | Needs configuration | Summary |",
    "|---|---|---|---|---|---|---|",
    ...validationModules.map(
      (m) =>
        `| \`${m.meta.id}\` | ${m.meta.subjectType} | ${m.meta.kind} | ${m.meta.severity} | ${m.meta.price.credits} | ${m.meta.requiresConfiguration ? "yes" : "no"} | ${m.meta.summary} |`,
    ),
    "",
    "## Sets",
    "",
    ...validationSets.flatMap((s) => [
      `### \`${s.id}\` (${s.subjectType})`,
      "",
      s.description,
      "",
      s.validationIds.map((id) => `\`${id}\``).join(", "),
      "",
    ]),
    "## Details",
    "",
  ];
  for (const m of validationModules) {
    out.push(`### \`${m.meta.id}\`: ${m.meta.name}`, "", m.meta.judgment, "");
    if (m.meta.parameters.length) {
      out.push("Parameters:", "");
      for (const p of m.meta.parameters)
        out.push(
          `- \`${p.name}\` (${p.format}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ""}): ${p.description}`,
        );
      out.push("");
    }
    if (m.meta.references.length)
      out.push(`References: ${m.meta.references.map((r) => `[${r.title}](${r.url})`).join(", ")}`, "");
  }
  return out.join("\n");
}

const code = (id: string) => `\`${id}\``;
/** "a", "a and b", "a, b and c". */
const andList = (items: string[]) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
const NUMBER_WORDS = ["no", "one", "two", "three", "four"];
const inWords = (n: number) => NUMBER_WORDS[n] ?? String(n);
const kilobytes = (bytes: number) => String(Math.round(bytes / 1024));

/** A client's recorded showcase renders: the catalog page's path and each screenshot, linked from docs/. */
const showcaseLinks = (clientId: string) => {
  const renders = rendersOfClient(clientId);
  if (!renders.length) return "";
  const shots = renders.map((r) => `[${r.colorScheme}](../src/catalog/email-clients/${r.image.file})`);
  return `${code(`/email-clients/${clientId}`)}: ${shots.join(", ")}`;
};

/**
 * docs/email-clients.md: the prose is src/docs/email-clients.template.md; every fact from the data (the
 * catalog's clients, the visual checks and their default renders and prices, the profiles' limits) is filled
 * in here, at its `{{name}}` or `{{clientsOf:<profile>}}`.
 */
function emailClientsMarkdown(): string {
  const clients = Object.values(EMAIL_CLIENTS).flat();
  const lightClients = clients.filter((c) => c.colorScheme === "light");
  const visualChecks = validationModules.filter(
    (m) => m.meta.subjectType === "email" && m.meta.needs.includes("render"),
  );
  const gmail = profileOf(findEmailClient("desktop-md", "gmail-web")!);
  // "partial-invert" reads "partial invert"; "color-scheme" is the CSS property's name and keeps its hyphen.
  const darkLabel = (c: (typeof clients)[number]) =>
    `${c.darkMode === "color-scheme" ? c.darkMode : c.darkMode.replace("-", " ")}${c.darkVariant ? ` (variant ${code(c.darkVariant)})` : ""}`;
  const facts: Record<string, string> = {
    visualChecks: visualChecks.map((m) => code(m.meta.id)).join(", "),
    clientTable: [
      "| Form factor | Client id | Native | Extra credit | Width | Dark mode | Showcase render |",
      "|---|---|---|---|---|---|---|",
      ...lightClients.map(
        (c) =>
          `| ${code(c.formFactor)} | ${code(c.id)} | ${c.nativeDefault ? "yes" : ""} | ${c.extraCredits ? "yes" : "no"} | ${c.width} | ${darkLabel(c)} | ${showcaseLinks(c.id)} |`,
      ),
    ].join("\n"),
    phoneWidth: String(nativeDefault("mobile-sm").width),
    checkTable: [
      "| Check | Standard form factors | Default renders | Credits |",
      "|---|---|---|---|",
      ...visualChecks.map(
        (m) =>
          `| ${code(m.meta.id)} | ${m.meta.capture.standard.join(", ")} | ${renderTargets(m)
            .map((t) => t.client.id)
            .join(", ")} | ${priceJob([{ module: m }]).totalCredits} |`,
      ),
    ].join("\n"),
    shownAsSentInDark: andList([
      ...new Set(lightClients.filter((c) => !c.darkVariant && c.darkMode === "none").map((c) => code(c.id))),
    ]),
    creditsPerRender: inWords(CREDITS_PER_RENDER),
    extraCreditsPerRender: inWords(EXTRA_CREDITS_PER_RENDER),
    gmailClipKb: kilobytes(gmail.clipBytes!),
    gmailStyleBlockKb: kilobytes(gmail.rules.styleBlockMaxBytes!),
    screenshotMaxHeight: DEFAULT_RENDER_LIMITS.screenshotMaxHeight.toLocaleString("en-US"),
    renderTimeoutS: String(DEFAULT_RENDER_LIMITS.timeoutMs / 1000),
    ruleSources: [
      "| Source id | What it is | Checked |",
      "|---|---|---|",
      ...Object.entries(RULE_SOURCES).map(
        ([id, src]) =>
          `| ${code(id)} | ${/^https:/.test(src.url) ? `[${src.title}](${src.url})` : `${src.title} (${code(src.url)})`} | ${src.checked} |`,
      ),
    ].join("\n"),
    maxChanges: String(MAX_CHANGES),
  };
  const template = readFileSync(join(import.meta.dir, "email-clients.template.md"), "utf8");
  return template.replace(/\{\{(\w+)(?::([\w-]+))?\}\}/g, (placeholder, name: string, profile?: string) => {
    if (name === "clientsOf" && profile) {
      const ids = clients.filter((c) => c.profile === profile).map((c) => code(c.id));
      if (ids.length) return [...new Set(ids)].join(", ");
    } else if (name === "sourcesOf" && profile) {
      const user = clients.find((c) => c.profile === profile);
      if (user) return profileOf(user).sources.map(code).join(", ");
    } else if (name in facts) return facts[name]!;
    throw new Error(`email-clients.template.md: ${placeholder} names no fact`);
  });
}

export const generatedDocs: Record<string, () => string> = {
  "docs/errors.md": errorsMarkdown,
  "docs/validations.md": validationsMarkdown,
  "docs/email-clients.md": emailClientsMarkdown,
  "docs/configuration.md": configurationMarkdown,
  "docs/api.md": apiMarkdown,
};
