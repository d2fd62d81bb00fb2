import recorded from "./examples.json";

/**
 * What Assay reported for each check's own pass and fail fixtures, recorded by `npm run examples`
 * (scripts/examples.ts runs every fixture as a real job) and embedded, so the catalog site shows real outcomes.
 * The fixture tests (test/checks/web-checks.test.ts, test/checks/email-checks.test.ts, test/checks/email-visual.test.ts) compare each
 * run's verdict and reason with this file, so it cannot drift from what the engine does.
 */

export interface RecordedExample {
  verdict: "pass" | "fail" | "error";
  reason?: string;
  findings: Array<{ message: string; selector?: string; url?: string; text?: string }>;
}

export interface CheckExamples {
  /** The fixture folder under test/fixtures/ (web, email or email-visual). */
  family: "web" | "email" | "email-visual";
  pass: RecordedExample;
  fail: RecordedExample;
}

interface ExamplesFile {
  /** The day the examples were recorded: the catalog site's lastmod (a stable date, not the request's). */
  recordedOn: string;
  examples: Record<string, CheckExamples>;
}

const file = recorded as ExamplesFile;

/** A check's recorded examples, or undefined when it has no fixtures to take them from. */
export const examplesOf = (id: string): CheckExamples | undefined => file.examples[id];

export const examplesRecordedOn = file.recordedOn;
