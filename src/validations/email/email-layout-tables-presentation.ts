import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf, listed } from "./_helpers";

const PRESENTATIONAL = new Set(["presentation", "none"]);

export const emailLayoutTablesPresentation: EmailValidation = {
  meta: htmlCheck({
    id: "email-layout-tables-presentation",
    name: "Layout tables marked presentational",
    category: "accessibility",
    severity: "minor",
    summary: 'Tables used for layout carry role="presentation", so screen readers do not announce rows and columns.',
    judgment:
      'Fails when any <table> with no <th>, <caption> or <thead> of its own lacks role="presentation" (or role="none"). Genuine data tables, which have their own header cells or caption, need no role and pass. A message without an HTML part passes.',
    references: [
      { title: "WAI-ARIA 1.2: presentation role", url: "https://www.w3.org/TR/wai-aria-1.2/#presentation" },
      { title: "Email Markup Consortium: accessibility guidelines", url: "https://emailmarkup.org/en/guidelines/" },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "no tables.");
    if ("outcome" in got) return got.outcome;
    const { tables } = got.dom;
    const layout = tables.filter((t) => !t.dataTable);
    const bare = layout.filter((t) => !PRESENTATIONAL.has((t.role ?? "").trim().toLowerCase()));
    const data = tables.length - layout.length;
    if (bare.length === 0) {
      return pass(
        `${layout.length} layout table(s) all have role="presentation"${data ? `; ${data} data table(s) with header cells or a caption need none` : ""}.`,
      );
    }
    return {
      verdict: "fail",
      reason: `Add role="presentation" to ${bare.length} layout table(s) (tables with no <th>, <caption> or <thead>): ${listed(bare.map((t) => `${t.depth ? "nested" : "outermost"} table ${t.selector}`))}`,
      reasoning: `${bare.length} of ${layout.length} layout tables (no <th>, <caption> or <thead>) lack role="presentation"; ${data} data table(s) were left alone.`,
      findings: bare.map((t) => ({
        message: `<table> without role="presentation"${t.role ? ` (role="${t.role}")` : ""}${t.depth ? `, nested ${t.depth} deep` : ", outermost"}`,
        selector: t.selector,
      })),
    };
  },
};
