import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eventCount, eventsOf, uniqueEmail, type TestServer } from "../support/harness";
import { inSession, signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { hidden, page, postForm } from "../support/pages";

/**
 * "Looks wrong?" as a person without JavaScript uses it: the job page links every result to a form generated from the
 * looks-wrong set's shapes; a refused form shows the page again with the code and files nothing; a filed one is
 * recorded as source dashboard with the person as actor, pays what the check cost, and the page then shows what was filed.
 */

setDefaultTimeout(120_000);
const PAGE =
  '<!doctype html><html lang="en"><head><title>Boots</title></head><body><h1>Boots</h1><h1>Sale</h1></body></html>';
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let person: SignedIn;
let jobId: string;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
  person = await signIn(server, relay, uniqueEmail("feedback-page"));
  const minted = await server.api("POST", "/api/keys", {
    headers: inSession(person),
    body: { name: "runner", scopes: ["jobs:read", "jobs:write"] },
  });
  const job = await server.api("POST", "/api/jobs", {
    key: minted.body.apiKey,
    body: {
      type: "static_html",
      html: PAGE,
      baseUrl: "https://example.com/",
      validations: ["page-title", "single-h1"],
    },
  });
  expect(job.status).toBe(200);
  jobId = job.body.jobId;
}, 120_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

const balance = async () =>
  (await server.api("GET", "/api/credits", { headers: inSession(person) })).body.balance as number;

test("a person files a looks-wrong form from the job page and sees what was filed and paid", async () => {
  const jobPage = await page(server, `/dashboard/jobs/${jobId}`, person.cookie);
  const path = `/dashboard/jobs/${jobId}/feedback/single-h1`;
  expect(jobPage.text).toContain(`href="${path}"`);
  expect(jobPage.text).toContain(`href="/dashboard/jobs/${jobId}/feedback/page-title"`);

  const form = await page(server, path, person.cookie);
  expect(form.status).toBe(200);
  expect(form.text).toContain("Is the problem it reports real?");
  expect(form.text).toContain("Answering pays 1 credits");
  for (const state of ["pass", "fail", "error"])
    expect(form.text).toContain(`name="answer.humanVerdict" value="${state}"`);
  for (const id of ["aiMistakeNotes", "verdictComments", "feedbackNotes"])
    expect(form.text).toContain(`<textarea id="q-${id}" name="answer.${id}"`);
  const fields = {
    _csrf: hidden(form.text, "_csrf")!,
    setId: hidden(form.text, "setId")!,
    jobId: hidden(form.text, "jobId")!,
    validationId: hidden(form.text, "validationId")!,
    "answer.humanVerdict": "pass",
    "answer.aiMistakeNotes": "",
    "answer.verdictComments": "",
    "answer.feedbackNotes": "",
  };

  const events = eventCount(server);
  const before = await balance();
  const refused = await postForm(server, path, fields, { cookie: person.cookie });
  expect(refused.status).toBe(400);
  expect(refused.text).toContain("AI_MISTAKE_NOTES_REQUIRED");
  expect(refused.text).toContain("Nothing was changed.");
  expect(eventCount(server)).toBe(events);

  const filed = await postForm(
    server,
    path,
    { ...fields, "answer.aiMistakeNotes": "The second <h1> is the sale banner's." },
    { cookie: person.cookie },
  );
  expect(filed.status).toBe(303);
  expect(filed.headers.get("location")).toBe(`${path}?done=filed`);
  expect(await balance()).toBe(before + 1);
  const submitted = eventsOf(server).find((e) => e.type === "FeedbackSubmitted")!;
  expect(submitted.metadata).toMatchObject({ channel: "dashboard", actor: { kind: "session", id: person.personId } });
  expect(submitted.data).toMatchObject({
    source: "dashboard",
    credential: `person:${person.personId}`,
    jobId,
    validationId: "single-h1",
    storedVerdict: "fail",
  });

  const shown = await page(server, `${path}?done=filed`, person.cookie);
  expect(shown.text).toContain("Thank you: your feedback is filed. 1 credits were paid to your organization.");
  expect(shown.text).toContain("you said pass (disputed)");
  expect(shown.text).toContain("The second &lt;h1&gt; is the sale banner&#x27;s.");
  expect(shown.text).not.toContain('name="answer.humanVerdict"');

  // A second form for the same result is refused: nothing filed twice, nothing paid twice.
  const again = await postForm(
    server,
    path,
    { ...fields, "answer.aiMistakeNotes": "again" },
    { cookie: person.cookie },
  );
  expect(again.status).toBe(409);
  expect(again.text).toContain("FEEDBACK_ALREADY_GIVEN");
  expect(await balance()).toBe(before + 1);
});
