import { expect, test } from "bun:test";
import { JobPageView } from "../../src/http/pages/dashboard/job-page-views";

/**
 * The job page's template on a job as the operations answer it: the decision first, the blocking check, then the
 * warning, then the passes collapsed; a finding with a measured box shows the screenshot cropped around the element
 * with it outlined; measurements read as words, never as JSON.
 */

const shell = {
  origin: "https://assay.example",
  email: "ada@example.com",
  role: "admin",
  customerId: "cus_1",
  csrfToken: "t",
  organizations: [{ customerId: "cus_1", orgCode: "ORG-1", role: "admin" }],
  path: "/dashboard/jobs",
};
const shot = (size: string) => ({ viewport: size, screenshotUrl: `/api/captures/job_1-${size}.jpg/shared?s=1` });
const result = (validationId: string, verdict: string, severity: string, extra: Record<string, unknown> = {}) => ({
  validationId,
  name: `Check ${validationId}`,
  verdict,
  severity,
  reasoning: `${validationId} reasoning`,
  findings: [],
  ...extra,
});
const job = {
  jobId: "job_1",
  type: "url",
  status: "completed",
  subject: { url: "https://shop.example/" },
  summary: { pass: 1, fail: 2, error: 0, passed: false },
  credits: { charged: 5, refunded: 0, net: 5 },
  skipped_validations: [],
  createdAt: "2026-11-27T09:00:00.000Z",
  completedAt: "2026-11-27T09:00:05.000Z",
  overallPassPolicy: {
    decision: "blocked",
    blockingRequired: ["cta-visible"],
    blockingProhibited: [],
    undecided: [],
    warnings: ["tap-targets"],
  },
  results: [
    result("page-title", "pass", "major"),
    result("tap-targets", "fail", "minor", {
      reason: "Make 1 tap target(s) at least 24×24px",
      captures: [shot("mobile-sm")],
      findings: [
        {
          message: '"1" is 14×14px and crowded',
          selector: "#one",
          viewport: "mobile-sm",
          measured: { width: 14, height: 14, box: { x: 16, y: 100, width: 14, height: 14 } },
        },
      ],
    }),
    result("cta-visible", "fail", "major", {
      reason: "Show the primary call to action",
      captures: [shot("desktop-md"), shot("mobile-sm")],
      findings: [
        { message: "gone at mobile-sm", selector: "#trial", viewport: "mobile-sm", measured: { visibleShare: 0 } },
      ],
    }),
  ],
};

const html = String(JobPageView({ shell, job, email: null, images: true }));

test("the decision first, then blocking, warnings, and the passes collapsed", () => {
  expect(html).toContain(
    '<span class="badge badge-blocked">Blocked</span> <span>by “Check cta-visible”. 1 warning.</span>',
  );
  const at = [
    'aria-label="Decision"',
    'id="blocking-heading"',
    'id="warnings-heading"',
    '<details class="passed">',
  ].map((s) => html.indexOf(s));
  expect(at.every((i) => i > 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(html.indexOf('id="result-page-title"')).toBeGreaterThan(html.indexOf('<details class="passed">'));
  expect(html).toContain('<span class="badge severity severity-minor">minor</span> <code>tap-targets</code>');
});

test("a finding with a box: the screenshot around the element, outlined; without: the screenshot beside it", () => {
  expect(html).toContain(
    '<img src="/api/captures/job_1-mobile-sm.jpg/shared?s=1" alt="" style="left:0px;top:-76px" loading="lazy"/><span class="outline" style="left:16px;top:24px;width:14px;height:14px">',
  );
  const cta = html.slice(html.indexOf('id="result-cta-visible"'));
  expect(cta).toContain(
    '<img src="/api/captures/job_1-mobile-sm.jpg/shared?s=1" alt="Screenshot at mobile-sm" width="240"',
  );
});

test("measurements in words, never JSON; Looks wrong? is a small link under each result", () => {
  expect(html).toContain("<dt>visible share</dt><dd>0</dd>");
  expect(html).toContain("<dt>width</dt><dd>14</dd>");
  expect(html).not.toContain("{&quot;");
  expect(html).not.toContain('{"');
  expect(html).toContain('<p class="looks-wrong"><a href="/dashboard/jobs/job_1/feedback/tap-targets">Looks wrong?');
});
