import { CONFIG_SECTIONS, CONFIG_VARS, type ConfigSection, type VarSpec } from "../config-vars";
import { anchorOf } from "./markdown";

/** docs/configuration.md, from the declaration of every variable (src/config-vars.ts). */

const FORMATS: Record<VarSpec["kind"], string> = {
  integer: "whole number",
  flag: "`1` or unset",
  list: "comma-separated",
  text: "text",
  path: "path",
  url: "URL",
  secret: "secret",
};

function formatOf(spec: VarSpec): string {
  const bounds = [spec.min ? `at least ${spec.min}` : "", spec.max !== undefined ? `at most ${spec.max}` : ""].filter(
    Boolean,
  );
  return [FORMATS[spec.kind], ...bounds].join(", ");
}

function defaultOf(spec: VarSpec): string {
  if (spec.defaultText) return spec.defaultText;
  if (spec.default !== undefined) return `\`${spec.default}\``;
  return spec.kind === "flag" ? "off" : "unset";
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

export function configurationMarkdown(): string {
  const vars = Object.entries(CONFIG_VARS) as Array<[string, VarSpec]>;
  const sections = Object.entries(CONFIG_SECTIONS) as Array<[ConfigSection, (typeof CONFIG_SECTIONS)[ConfigSection]]>;
  const out = [
    "# Configuration",
    "",
    "<!-- Generated from src/config-vars.ts by `npm run docs`; do not edit by hand. -->",
    "",
    "Assay is configured by environment variables alone, and every one has a default: `npm start` needs none of them.",
    "An empty value is read as unset. A whole number that is not one (or is negative) stops the start, naming the variable;",
    "a number outside its bounds is read as the nearest bound. src/config-vars.ts declares each variable once: the server",
    "reads it through that declaration (src/config.ts), and this page is written from it.",
    "",
    ...sections.map(
      ([id, s]) => `- [${s.title}](#${anchorOf(s.title)}) (${vars.filter(([, v]) => v.section === id).length})`,
    ),
    "",
  ];
  for (const [id, section] of sections) {
    out.push(
      `## ${section.title}`,
      "",
      section.intro,
      "",
      "| Variable | Default | Format | What it does |",
      "|---|---|---|---|",
    );
    for (const [name, spec] of vars.filter(([, v]) => v.section === id)) {
      out.push(`| \`${name}\` | ${cell(defaultOf(spec))} | ${formatOf(spec)} | ${cell(spec.doc)} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
