import type { CheckRow, PageReport, RunReport } from "./run-rows";
import { EFFECT_WORDS } from "./run-text";

/**
 * The run as one standalone HTML file a person opens from a CI artifact: the decision first, then what changed
 * against the baseline (new failures, fixed, visual changes with the baseline, current and diff pictures), the
 * accepted findings, then every page with its checks. No script and no outside resource: its pictures come as
 * `images` (a capture's URL to a data URL, or to a file beside the report), and a picture not given is a link to
 * the server. It passes Assay's own accessibility and web-essentials checks (test/cli/run-reports.test.ts).
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;

const STYLE = `
:root { color: #1b1b1b; background: #ffffff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem; }
h1 { font-size: 1.75rem; margin: 0.5rem 0; } h2 { font-size: 1.35rem; margin-top: 2rem; } h3 { font-size: 1.1rem; margin-top: 1.5rem; overflow-wrap: anywhere; }
.decision { font-size: 1.2rem; font-weight: 600; padding: 0.75rem 1rem; border-radius: 0.25rem; border: 2px solid currentColor; }
.pass { color: #1b5e20; } .blocked { color: #a30000; } .undecided, .pending { color: #6b4000; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; } dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid #8a8a8a; overflow-wrap: anywhere; }
figure { display: inline-block; margin: 0.5rem 1rem 0.5rem 0; max-width: 100%; } figure img { max-width: 100%; height: auto; border: 1px solid #8a8a8a; }
a { color: #0b4f9c; text-decoration: underline; } code { font-family: ui-monospace, Menlo, Consolas, monospace; }
ul.findings { margin: 0.25rem 0 0; padding-left: 1.25rem; }
`;

function scrollTable(label: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) return "<p>None.</p>";
  return `<div class="scroll" role="region" aria-label="${esc(label)}" tabindex="0"><table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`;
}

/** A picture of the run: from the images given, else a link to where the server keeps it. */
function picture(url: string | undefined, alt: string, images: ReadonlyMap<string, string>, caption: string): string {
  if (!url) return "";
  const src = images.get(url);
  const body = src
    ? `<img src="${esc(src)}" alt="${esc(alt)}">`
    : `<a href="${esc(url)}">${esc(alt)} (on the server)</a>`;
  return `<figure>${body}<figcaption>${esc(caption)}</figcaption></figure>`;
}

function checkCells(r: CheckRow): string[] {
  const findings = r.verdict === "pass" ? [] : r.findings.slice(0, 5);
  const reason = [
    r.reason ? esc(r.reason) : "",
    r.accepted ? `<br>Accepted: ${esc(r.accepted)}` : "",
    findings.length
      ? `<ul class="findings">${findings.map((f) => `<li>${f.selector ? `<code>${esc(f.selector)}</code>: ` : ""}${esc(f.message)}</li>`).join("")}</ul>`
      : "",
  ].join("");
  const tags = [r.verdict === "fail" && r.isNew && r.effect !== "accepted" ? "new, " : "", EFFECT_WORDS[r.effect]].join(
    "",
  );
  return [`<code>${esc(r.validationId)}</code>`, esc(r.verdict), esc(r.severity), esc(tags), reason];
}

/** A page's screenshots where checks did not pass: the first three. */
const pageShots = (p: PageReport) =>
  [...new Set(p.rows.filter((r) => r.verdict !== "pass" && r.screenshotUrl).map((r) => r.screenshotUrl!))].slice(0, 3);

function pageSection(p: PageReport, images: ReadonlyMap<string, string>): string {
  const { page } = p;
  const visual = page.visual
    ? `<p>Screenshots ${page.visual.changed ? "changed" : "unchanged"} against the baseline: ${page.visual.sizes.map((s) => `${esc(s.size)} ${percent(s.changedRatio)}`).join(", ")}.</p>`
    : "";
  const shots = pageShots(p)
    .map((url) => picture(url, `Screenshot of ${p.label}`, images, "Where a check did not pass"))
    .join("");
  return `<section aria-label="${esc(p.label)}"><h3>${esc(p.label)}</h3>
<p><span class="${esc(page.decision)}">${esc(page.decision.toUpperCase())}</span> · ${esc(page.type)} · job <code>${esc(page.jobId)}</code> · ${page.status === "completed" ? "" : `${esc(page.status)} · `}${page.summary.pass} pass, ${page.summary.fail} fail, ${page.summary.error} error${p.file ? ` · file <code>${esc(p.file)}</code>` : ""}</p>
${visual}${p.rows.length ? scrollTable(`Checks of ${p.label}`, ["Check", "Verdict", "Severity", "Effect", "Reason"], p.rows.map(checkCells)) : `<p>No check ran: the page's job is ${esc(page.status)}.</p>`}${shots}</section>`;
}

export function runHtmlReport(report: RunReport, images: ReadonlyMap<string, string> = new Map()): string {
  const { run, verdict } = report;
  const c = run.comparison;
  const byKey = new Map(report.pages.map((p) => [p.page.pageKey, p]));
  const effectOf = (pageKey: string, validationId: string) =>
    byKey.get(pageKey)?.rows.find((r) => r.validationId === validationId)?.effect ?? "blocks";
  const meta: Array<[string, string]> = [
    ["Run", `<code>${esc(run.runId)}</code>`],
    ["Project", esc(run.project)],
    ...(run.branch ? ([["Branch", esc(run.branch)]] as Array<[string, string]>) : []),
    ...(run.commit ? ([["Commit", `<code>${esc(run.commit)}</code>`]] as Array<[string, string]>) : []),
    ["Status", esc(run.status)],
    ["Started", esc(run.createdAt)],
    ["Fail on", `<code>${esc(run.failOn)}</code>`],
    [
      "Pages",
      `${run.totals.pages} (${run.totals.passed} passed, ${run.totals.blocked} blocked, ${run.totals.undecided} undecided)`,
    ],
    [
      "Credits",
      `${run.totals.credits.net} net (${run.totals.credits.charged} charged, ${run.totals.credits.refunded} refunded)`,
    ],
    [
      "Baseline",
      c ? `<code>${esc(c.baselineRunId)}</code> (${esc(c.baseBranch)})` : "none: every failure counts as new",
    ],
  ];
  const visualChanges = (c?.visualChanges ?? []).map((v) => {
    const size = byKey.get(v.pageKey)?.page.visual?.sizes.find((s) => s.size === v.size);
    return `<section aria-label="${esc(`${v.pageKey} at ${v.size}`)}"><h3>${esc(v.pageKey)} at ${esc(v.size)}: ${percent(v.changedRatio)} changed</h3>${picture(size?.baselineUrl, `The baseline of ${v.pageKey} at ${v.size}`, images, "Baseline")}${picture(size?.currentUrl, `This run's ${v.pageKey} at ${v.size}`, images, "This run")}${picture(size?.diffUrl, `The pixels that changed on ${v.pageKey} at ${v.size}`, images, "Difference")}</section>`;
  });
  const title = `Assay run of ${run.project}: ${verdict.outcome}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><meta name="description" content="${esc(`Assay's report of run ${run.runId} of ${run.project}: ${verdict.why}.`)}">
<style>${STYLE}</style></head>
<body><main>
<h1>${esc(title)}</h1>
<p class="decision ${verdict.outcome}">${esc(verdict.outcome.toUpperCase())}: ${esc(verdict.why)}.</p>
<dl>${meta.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>
<section aria-labelledby="new-failures"><h2 id="new-failures">New failures (${c?.newFailures.length ?? "no baseline"})</h2>
${
  c
    ? scrollTable(
        "New failures",
        ["Page", "Check", "Effect", "Reason"],
        c.newFailures.map((f) => [
          esc(f.pageKey),
          `<code>${esc(f.validationId)}</code>`,
          esc(EFFECT_WORDS[effectOf(f.pageKey, f.validationId)]),
          esc(f.reason),
        ]),
      )
    : "<p>No baseline to compare with: every failure below counts as new.</p>"
}</section>
<section aria-labelledby="fixed"><h2 id="fixed">Fixed (${c?.fixed.length ?? 0})</h2>
${scrollTable(
  "Fixed",
  ["Page", "Check", "Was"],
  (c?.fixed ?? []).map((f) => [esc(f.pageKey), `<code>${esc(f.validationId)}</code>`, esc(f.reason)]),
)}</section>
<section aria-labelledby="visual"><h2 id="visual">Visual changes (${c?.visualChanges.length ?? 0})</h2>
${visualChanges.length ? visualChanges.join("\n") : "<p>None.</p>"}</section>
${c && (c.newPages.length || c.pagesGone.length) ? `<section aria-labelledby="pages-changed"><h2 id="pages-changed">Pages added and gone</h2><p>New: ${esc(c.newPages.join(", ") || "none")}. Gone: ${esc(c.pagesGone.join(", ") || "none")}.</p></section>` : ""}
<section aria-labelledby="accepted"><h2 id="accepted">Accepted findings (${run.ignored.length})</h2>
${scrollTable(
  "Accepted findings",
  ["Page", "Check", "Where", "Why"],
  run.ignored.map((i) => [
    esc(i.pageKey),
    `<code>${esc(i.validationId)}</code>`,
    esc([i.selector, i.finding].filter(Boolean).join(" · ") || "every finding"),
    esc(i.reason),
  ]),
)}</section>
<section aria-labelledby="pages"><h2 id="pages">Pages (${report.pages.length})</h2>
${report.pages.map((p) => pageSection(p, images)).join("\n")}</section>
</main></body></html>
`;
}

/** The captures a report shows: each visual change's three pictures, and the screenshots of the checks that did not pass. */
export function reportImageUrls(report: RunReport): string[] {
  const urls = new Set<string>();
  for (const p of report.pages) {
    if (p.page.visual?.changed)
      for (const s of p.page.visual.sizes) for (const u of [s.baselineUrl, s.currentUrl, s.diffUrl]) if (u) urls.add(u);
    for (const url of pageShots(p)) urls.add(url);
  }
  return [...urls];
}
