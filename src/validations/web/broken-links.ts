import { pass, type Finding, type WebValidation } from "../types";
import type { AnchorInfo } from "../../capture/artifacts";
import type { ProbeResult } from "../../capture/url-probe";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";

/** At most this many distinct link targets are requested per page; the reasoning says when more were left out. */
const MAX_TARGETS = 300;
/** The whole check's time budget (each request also has its own time-out, 10 s, in the probe). */
const BUDGET_MS = 30_000;

const withoutHash = (u: string) => u.replace(/#.*$/, "");

/**
 * Why a probed target counts as broken, null when it answered, or "undecided" when this server could not ask:
 * DNS that cannot answer now says nothing about the link, so it is left unanswered, never called broken.
 */
function brokenBecause(r: ProbeResult): { cause: string; status?: number } | "undecided" | null {
  if (r.kind === "refused" && r.reason === "dns-unavailable") return "undecided";
  if (r.kind === "refused") {
    const via = r.refusedUrl !== r.url ? ` (a redirect to ${r.refusedUrl})` : "";
    return { cause: `refused by the network guard${via}: ${r.reason}, ${r.detail}` };
  }
  if (r.kind === "failed") {
    // Too large is an answer: the server sent a body past the probe's cap.
    if (r.error === "too-large") return null;
    return { cause: r.error === "timeout" ? `no answer (${r.detail})` : `network failure: ${r.detail}` };
  }
  if (r.status >= 400) return { cause: `HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ""}`, status: r.status };
  return null;
}

export const brokenLinks: WebValidation = {
  meta: domCheck({
    id: "broken-links",
    name: "No broken links",
    category: "functional",
    severity: "major",
    summary: "Every http(s) link on the page leads somewhere: no 4xx or 5xx answer, no network failure, no refusal.",
    judgment:
      "Every <a href> at desktop-md that resolves to an http or https URL is requested server-side through the network guard (fragments dropped, each distinct URL once per job, at most 6 at a time, 10 s per request, 30 s and 300 targets per page): HEAD first, then GET when HEAD fails or answers an error status (405 and 501 mean the server does not do HEAD). Fails when the answer is HTTP 400 or above, when the request fails (no connection, time-out, too many redirects), or when the guard refuses the target or one of its redirects (a private or loopback address). Fragment-only links (#top), mailto:, tel:, javascript: and links to the page itself are not requested. When targets are still unanswered after 30 s, or DNS cannot answer for them now, and none found so far is broken, the result is an error (not a verdict), refunded.",
    needs: ["dom"],
    references: [
      { title: "MDN: HTTP response status codes", url: "https://developer.mozilla.org/en-US/docs/Web/HTTP/Status" },
      { title: "MDN: HEAD request method", url: "https://developer.mozilla.org/en-US/docs/Web/HTTP/Methods/HEAD" },
    ],
  }),
  async evaluate(artifacts, _params, services) {
    const dom = domAt(artifacts);
    const page = withoutHash(dom.url);
    const byTarget = new Map<string, AnchorInfo[]>();
    let skipped = 0;
    for (const a of dom.anchors) {
      if (!/^https?:/i.test(a.resolved) || a.href.trim().startsWith("#")) {
        skipped++;
        continue;
      }
      const target = withoutHash(a.resolved);
      if (target === page) {
        skipped++;
        continue;
      }
      byTarget.set(target, [...(byTarget.get(target) ?? []), a]);
    }
    const targets = [...byTarget.keys()];
    const checked = targets.slice(0, MAX_TARGETS);
    // Answers that have not come within the budget are left out rather than holding the job.
    const results: Array<ProbeResult | undefined> = new Array(checked.length);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(checked.map((t, i) => services.probe.link(t).then((r) => (results[i] = r)))),
      new Promise((resolve) => (timer = setTimeout(resolve, BUDGET_MS))),
    ]);
    clearTimeout(timer);
    const verdicts = results.map((r) => (r ? brokenBecause(r) : "undecided"));
    const unanswered = checked.filter((_, i) => verdicts[i] === "undecided");
    const findings: Finding[] = [];
    checked.forEach((target, i) => {
      const broken = verdicts[i];
      if (!broken || broken === "undecided") return;
      for (const a of byTarget.get(target)!) {
        findings.push({
          message: `${quote(a.text || a.href, 60)} → ${target}: ${broken.cause}`,
          selector: a.selector,
          url: target,
          ...(broken.status ? { measured: { status: broken.status } } : {}),
        });
      }
    });
    const left =
      targets.length > checked.length
        ? ` ${targets.length - checked.length} further target(s) past the limit of ${MAX_TARGETS} were not requested.`
        : "";
    const late = unanswered.length
      ? ` ${unanswered.length} target(s) could not be asked (no answer within ${BUDGET_MS / 1000} s, or DNS could not answer): ${unanswered.slice(0, 3).join(", ")}${unanswered.length > 3 ? ", ..." : ""}.`
      : "";
    const summary = `${dom.anchors.length} link(s): ${targets.length} distinct http(s) target(s), ${skipped} skipped (fragment-only, mailto:, tel:, javascript:, this page).${left}${late}`;
    if (findings.length === 0 && unanswered.length > 0) {
      // Not a verdict on the page: too slow to decide, so an error row (refunded), never a guessed pass.
      const cause = `${unanswered.length} of ${checked.length} link target(s) could not be asked (no answer within ${BUDGET_MS / 1000} s, or DNS could not answer), so the links could not all be checked`;
      return { verdict: "error", reason: cause, reasoning: summary, findings: [] };
    }
    if (findings.length === 0) return pass(`${summary} Every requested target answered below HTTP 400.`);
    const badTargets = new Set(findings.map((f) => f.url)).size;
    const where = findings
      .slice(0, 3)
      .map((f) => `${f.selector}: ${f.message}`)
      .join("; ");
    return {
      verdict: "fail",
      reason: `Fix or remove ${findings.length} broken link(s) to ${badTargets} target(s): ${where}${findings.length > 3 ? `; +${findings.length - 3} more` : ""}`,
      reasoning: `${summary} ${badTargets} target(s) are broken.`,
      findings,
    };
  },
};
