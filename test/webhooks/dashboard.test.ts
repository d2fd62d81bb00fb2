import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { eventsOf, uniqueEmail, type TestServer } from "../support/harness";
import { inSession, signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { page, postForm } from "../support/pages";
import { trailheadMessage } from "../support/smtp-session";
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The webhooks pages as a browser without JavaScript uses them: the endpoints (add, with the secret shown once;
 * rotate; delete), one endpoint's delivery log with each attempt, and replay; every form carries the session's CSRF
 * token, a refusal shows the page again with its code and changes nothing. Real server, real sign-in, a real receiver.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = startWebhookReceiver();
  ({ relay, server, stop: stopServer } = await startServerWithRelay({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" }));
}, 120_000);
afterAll(async () => {
  await stopServer?.();
  receiver?.stop();
}, 120_000);

const secretOn = (html: string) => /<p class="secret" id="secret">([^<]+)<\/p>/.exec(html)?.[1];
const endpointIdOn = (html: string) => /<tr id="(whe_[^"]+)">/.exec(html)?.[1];

/** A job of the person's organization, completed by a real message, run with a key the person mints. */
async function completedEmailJob(who: SignedIn): Promise<string> {
  const key = await server.api("POST", "/api/keys", {
    headers: inSession(who),
    body: { name: "jobs", scopes: ["jobs:write"] },
  });
  const job = await server.api("POST", "/api/jobs", {
    key: key.body.apiKey,
    body: { type: "email", validations: ["email-subject-length"] },
  });
  expect(job.status).toBe(200);
  await nodemailer
    .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
    .sendMail(trailheadMessage(job.body.testEmail));
  return job.body.jobId;
}

describe("the webhooks pages", () => {
  test("signed out, they send the person to sign in and back", async () => {
    const res = await page(server, "/dashboard/webhooks");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/signin?next=%2Fdashboard%2Fwebhooks");
  });

  test("add (the secret shown once), a delivery in the log with its attempt, replay, rotate, delete", async () => {
    const who = await signIn(server, relay, uniqueEmail("webhooks-page"));
    const empty = await page(server, "/dashboard/webhooks", who.cookie);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("No endpoints yet");
    expect(empty.text).toContain('href="/dashboard/webhooks" aria-current="page"');

    const added = await postForm(
      server,
      "/dashboard/webhooks",
      { _csrf: who.csrfToken, url: receiver.url("/page-hooks"), events: ["job.completed"], description: "CI <main>" },
      { cookie: who.cookie },
    );
    expect(added.status).toBe(201);
    expect(added.text).toContain("shown only this once");
    expect(added.text).toContain("CI &lt;main&gt;");
    const secret = secretOn(added.text)!;
    expect(secret).toMatch(/^whsec_/);
    const endpointId = endpointIdOn(added.text)!;
    const adding = eventsOf(server).findLast((e) => e.type === "WebhookEndpointAdded")!;
    expect(adding.metadata.channel).toBe("dashboard");
    expect(adding.metadata.actor).toEqual({ kind: "session", id: who.personId });
    const listed = await page(server, "/dashboard/webhooks", who.cookie);
    expect(listed.text).toContain(receiver.url("/page-hooks"));
    expect(listed.text).not.toContain(secret);

    const jobId = await completedEmailJob(who);
    const [request] = await receiver.waitFor("/page-hooks", 1);
    expect(verifyDelivery(secret, request!).data.jobId).toBe(jobId);
    const deliveryId = request!.headers["webhook-id"]!;
    let log = await page(server, `/dashboard/webhooks/${endpointId}`, who.cookie);
    for (let i = 0; i < 200 && !log.text.includes("HTTP 204"); i++) {
      await Bun.sleep(50);
      log = await page(server, `/dashboard/webhooks/${endpointId}`, who.cookie);
    }
    expect(log.status).toBe(200);
    expect(log.text).toContain(deliveryId);
    expect(log.text).toContain(`href="/dashboard/jobs/${jobId}"`);
    expect(log.text).toContain("HTTP 204");
    expect(log.text).toContain("delivered");

    const replayed = await postForm(
      server,
      `/dashboard/webhooks/${endpointId}/deliveries/${deliveryId}/replay`,
      { _csrf: who.csrfToken },
      { cookie: who.cookie },
    );
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get("location")).toBe(`/dashboard/webhooks/${endpointId}?done=replayed`);
    const [, again] = await receiver.waitFor("/page-hooks", 2);
    expect(again!.headers["webhook-id"]).toBe(deliveryId);
    expect((await page(server, `/dashboard/webhooks/${endpointId}?done=replayed`, who.cookie)).text).toContain(
      "queued again",
    );

    const rotated = await postForm(
      server,
      `/dashboard/webhooks/${endpointId}/rotate`,
      { _csrf: who.csrfToken },
      { cookie: who.cookie },
    );
    expect(rotated.status).toBe(200);
    const second = secretOn(rotated.text)!;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(secret);
    expect(rotated.text).toContain("the previous one no longer verifies");

    const deleted = await postForm(
      server,
      `/dashboard/webhooks/${endpointId}/delete`,
      { _csrf: who.csrfToken },
      { cookie: who.cookie },
    );
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/dashboard/webhooks?done=deleted");
    const after = await page(server, "/dashboard/webhooks?done=deleted", who.cookie);
    expect(after.text).toContain("The endpoint is deleted");
    expect(after.text).toContain("No endpoints yet");
  });

  test("a private URL or a form without the CSRF token changes nothing; the refusal is shown with its code", async () => {
    const who = await signIn(server, relay, uniqueEmail("webhooks-refused"));
    const before = eventsOf(server).length;
    const forged = await postForm(
      server,
      "/dashboard/webhooks",
      { url: receiver.url("/forged"), events: ["job.completed"] },
      { cookie: who.cookie },
    );
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF_TOKEN_INVALID");
    const refused = await postForm(
      server,
      "/dashboard/webhooks",
      { _csrf: who.csrfToken, url: "http://192.168.1.10/hook", events: ["job.completed"] },
      { cookie: who.cookie },
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("WEBHOOK_URL_INVALID");
    expect(refused.text).toContain("Nothing was changed.");
    expect(refused.text).toContain("No endpoints yet");
    expect(eventsOf(server).length).toBe(before);
  });

  test("another organization's endpoint reads as a missing one, and is not touched", async () => {
    const owner = await signIn(server, relay, uniqueEmail("webhooks-owner"));
    const other = await signIn(server, relay, uniqueEmail("webhooks-other"));
    const added = await postForm(
      server,
      "/dashboard/webhooks",
      { _csrf: owner.csrfToken, url: receiver.url("/owned"), events: ["job.completed"] },
      { cookie: owner.cookie },
    );
    const endpointId = endpointIdOn(added.text)!;
    const before = eventsOf(server).length;
    const foreignLog = await page(server, `/dashboard/webhooks/${endpointId}`, other.cookie);
    expect(foreignLog.status).toBe(404);
    expect(foreignLog.text).toContain("WEBHOOK_NOT_FOUND");
    const foreignDelete = await postForm(
      server,
      `/dashboard/webhooks/${endpointId}/delete`,
      { _csrf: other.csrfToken },
      { cookie: other.cookie },
    );
    expect(foreignDelete.status).toBe(404);
    expect(eventsOf(server).length).toBe(before);
    expect((await page(server, "/dashboard/webhooks", owner.cookie)).text).toContain(endpointId);
  });
});
