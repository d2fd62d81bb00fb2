import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventsOf, uniqueEmail, type TestServer } from "../support/harness";
import {
  inSession,
  openLink,
  signIn,
  signInThrough,
  type MailRelay,
  type SignedIn,
  startServerWithRelay,
} from "../support/mail-relay";
import { hidden, page, postForm, type PageAnswer } from "../support/pages";

/**
 * The members page as a browser without JavaScript uses it: the members and pending invitations; an admin
 * invites (the emailed link signs the invitee in and lands on the dashboard), changes roles and removes; anyone
 * leaves. A member sees no admin form, and posting one anyway is ADMIN_REQUIRED; every refusal shows the page
 * again with its status and writes nothing. Real server, real sign-in by emailed link, and one run in Chromium.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
}, 120_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

const members = (who: SignedIn) => page(server, "/dashboard/members", who.cookie);
/** The row of a person (or an invitation) on the page, as HTML. */
const rowOf = (html: string, id: string) => {
  const at = html.indexOf(`<tr id="${id}">`);
  return at < 0 ? null : html.slice(at, html.indexOf("</tr>", at));
};
const roleIn = (row: string | null) => /<td data-label="Role" class="role">([^<]*)<\/td>/.exec(row ?? "")?.[1];

/** Invites through the page's form and returns the emailed link. */
async function inviteByForm(admin: SignedIn, email: string, role = "member") {
  const shown = await members(admin);
  const res = await postForm(
    server,
    "/dashboard/members/invite",
    { _csrf: hidden(shown.text, "_csrf")!, email, role },
    { cookie: admin.cookie },
  );
  expect([res.status, res.headers.get("location")]).toEqual([303, "/dashboard/members?done=invited"]);
  return relay.invitationFor(email);
}

/** An organization with an admin and a member who joined by the page's invitation. */
async function team(tag: string) {
  const admin = await signIn(server, relay, uniqueEmail(`${tag}-admin`));
  const memberEmail = uniqueEmail(`${tag}-member`);
  const member = await signInThrough(server, await inviteByForm(admin, memberEmail));
  return { admin, member, memberEmail };
}

/** A refused form: the page again, with the refusal's status and code, and nothing written. */
async function expectRefused(post: () => Promise<PageAnswer>, status: number, code: string) {
  const before = eventsOf(server).length;
  const res = await post();
  expect([res.status, res.text.includes(`Nothing was changed. (${code})`)]).toEqual([status, true]);
  expect(res.text).toContain("<h1>Members</h1>");
  expect(eventsOf(server).length).toBe(before);
  return res;
}

describe("the members page", () => {
  test("signed out, it sends the person to sign in and back", async () => {
    const res = await page(server, "/dashboard/members");
    expect([res.status, res.headers.get("location")]).toEqual([303, "/signin?next=%2Fdashboard%2Fmembers"]);
  });

  test("invite by the form: pending on the page; the emailed link signs the invitee in, lands on the dashboard, and they are a member", async () => {
    const admin = await signIn(server, relay, uniqueEmail("inviter"));
    const email = uniqueEmail("o'hara");
    const link = await inviteByForm(admin, email, "member");
    const invited = eventsOf(server).findLast((e) => e.type === "MemberInvited")!;
    expect(invited.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId }, channel: "dashboard" });
    const pending = await page(server, "/dashboard/members?done=invited", admin.cookie);
    expect(pending.text).toContain("Invitation sent");
    const invitationRow = rowOf(pending.text, (invited.data as { invitationId: string }).invitationId);
    // The email is escaped wherever it shows.
    expect(invitationRow).toContain(email.replace("'", "&#x27;"));
    expect(pending.text).not.toContain(email);

    const opened = await openLink(link);
    expect([opened.status, opened.headers.get("location")]).toEqual([303, "/dashboard"]);
    expect((await openLink(link)).status).toBe(400);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
    const landing = await page(server, "/dashboard", cookie);
    expect([landing.status, landing.headers.get("location")]).toEqual([303, "/dashboard/jobs"]);

    const after = await members(admin);
    const joined = eventsOf(server).findLast((e) => e.type === "MemberAdded")!;
    const personId = (joined.data as { personId: string }).personId;
    expect(roleIn(rowOf(after.text, personId))).toBe("member");
    expect(rowOf(after.text, personId)).toContain(`Role of <span>${email.replace("'", "&#x27;")}</span>`);
    expect(after.text).toContain("No pending invitations.");
    // The invitee reads the same list, with Leave and no admin form.
    const theirs = await page(server, "/dashboard/members", cookie);
    expect(theirs.status).toBe(200);
    expect(rowOf(theirs.text, personId)).toContain("(you)");
    expect(rowOf(theirs.text, admin.personId)).not.toBeNull();
    expect(theirs.text).toContain('action="/dashboard/members/leave"');
    for (const adminForm of ["/dashboard/members/invite", "/role", "/remove"])
      expect(theirs.text).not.toContain(adminForm);
  });

  test("an admin changes a member's role and removes a member through the forms; the removed member's session stops working", async () => {
    const { admin, member } = await team("roles");
    const promoted = await postForm(
      server,
      `/dashboard/members/${member.personId}/role`,
      { _csrf: admin.csrfToken, role: "admin" },
      { cookie: admin.cookie },
    );
    expect([promoted.status, promoted.headers.get("location")]).toEqual([303, "/dashboard/members?done=role"]);
    const shown = await page(server, "/dashboard/members?done=role", admin.cookie);
    expect(shown.text).toContain("Role changed.");
    expect(roleIn(rowOf(shown.text, member.personId))).toBe("admin");
    expect(eventsOf(server).findLast((e) => e.type === "MemberRoleChanged")!.metadata.channel).toBe("dashboard");

    const removed = await postForm(
      server,
      `/dashboard/members/${member.personId}/remove`,
      { _csrf: admin.csrfToken },
      { cookie: admin.cookie },
    );
    expect([removed.status, removed.headers.get("location")]).toEqual([303, "/dashboard/members?done=removed"]);
    const after = await page(server, "/dashboard/members?done=removed", admin.cookie);
    expect(after.text).toContain("Member removed");
    expect(rowOf(after.text, member.personId)).toBeNull();
    expect((await members(member)).status).toBe(303);
  });

  test("leave: with no other organization the session ends (to sign-in); with another, the page acts for it", async () => {
    const { admin, member } = await team("leave");
    const left = await postForm(
      server,
      "/dashboard/members/leave",
      { _csrf: member.csrfToken },
      { cookie: member.cookie },
    );
    expect([left.status, left.headers.get("location")]).toEqual([303, "/signin?done=signed-out"]);
    expect(left.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await members(member)).status).toBe(303);
    expect(rowOf((await members(admin)).text, member.personId)).toBeNull();

    // Someone with an organization of their own joins another by invitation, then leaves it.
    const host = await signIn(server, relay, uniqueEmail("leave-host"));
    const email = uniqueEmail("leave-twice");
    const person = await signIn(server, relay, email);
    const link = await inviteByForm(host, email, "member");
    const accepted = await server.api("POST", "/api/invitations/accept", {
      headers: inSession(person),
      body: { token: new URL(link).searchParams.get("token") },
    });
    expect(accepted.status).toBe(200);
    const switched = await postForm(
      server,
      "/dashboard/organization",
      { _csrf: person.csrfToken, customerId: host.customerId, next: "/dashboard/members" },
      { cookie: person.cookie },
    );
    expect(switched.status).toBe(303);
    expect(rowOf((await members(person)).text, host.personId)).not.toBeNull();
    const leftOne = await postForm(
      server,
      "/dashboard/members/leave",
      { _csrf: person.csrfToken },
      { cookie: person.cookie },
    );
    expect([leftOne.status, leftOne.headers.get("location")]).toEqual([303, "/dashboard/members?done=left"]);
    const now = await page(server, "/dashboard/members?done=left", person.cookie);
    expect(now.text).toContain("You left that organization");
    expect(rowOf(now.text, host.personId)).toBeNull();
    expect(roleIn(rowOf(now.text, person.personId))).toBe("admin");
  });

  test("a member sees no admin form, and posting one anyway is ADMIN_REQUIRED (403); nothing changes", async () => {
    const { admin, member } = await team("member-forms");
    const refused = await expectRefused(
      () =>
        postForm(
          server,
          "/dashboard/members/invite",
          { _csrf: member.csrfToken, email: uniqueEmail("nope"), role: "admin" },
          { cookie: member.cookie },
        ),
      403,
      "ADMIN_REQUIRED",
    );
    expect(refused.text).not.toContain('action="/dashboard/members/invite"');
    await expectRefused(
      () =>
        postForm(
          server,
          `/dashboard/members/${admin.personId}/role`,
          { _csrf: member.csrfToken, role: "member" },
          { cookie: member.cookie },
        ),
      403,
      "ADMIN_REQUIRED",
    );
    await expectRefused(
      () =>
        postForm(
          server,
          `/dashboard/members/${admin.personId}/remove`,
          { _csrf: member.csrfToken },
          { cookie: member.cookie },
        ),
      403,
      "ADMIN_REQUIRED",
    );
    expect(roleIn(rowOf((await members(admin)).text, admin.personId))).toBe("admin");
  });

  test("the last admin cannot demote themselves nor leave: LAST_ADMIN (409), nothing changes", async () => {
    const { admin } = await team("last-admin");
    await expectRefused(
      () =>
        postForm(
          server,
          `/dashboard/members/${admin.personId}/role`,
          { _csrf: admin.csrfToken, role: "member" },
          { cookie: admin.cookie },
        ),
      409,
      "LAST_ADMIN",
    );
    await expectRefused(
      () => postForm(server, "/dashboard/members/leave", { _csrf: admin.csrfToken }, { cookie: admin.cookie }),
      409,
      "LAST_ADMIN",
    );
    expect((await members(admin)).status).toBe(200);
  });

  test("another organization's person reads exactly as a missing one (MEMBER_NOT_FOUND, 404) on every form, and is not touched", async () => {
    const { admin } = await team("ours");
    const theirs = await team("theirs");
    for (const personId of ["per_doesnotexist", theirs.member.personId]) {
      await expectRefused(
        () =>
          postForm(
            server,
            `/dashboard/members/${personId}/role`,
            { _csrf: admin.csrfToken, role: "admin" },
            { cookie: admin.cookie },
          ),
        404,
        "MEMBER_NOT_FOUND",
      );
      await expectRefused(
        () =>
          postForm(
            server,
            `/dashboard/members/${personId}/remove`,
            { _csrf: admin.csrfToken },
            { cookie: admin.cookie },
          ),
        404,
        "MEMBER_NOT_FOUND",
      );
    }
    expect(roleIn(rowOf((await members(theirs.admin)).text, theirs.member.personId))).toBe("member");
  });

  test("a form without the session's CSRF token, or with a role that does not exist, changes nothing", async () => {
    const { admin, member } = await team("forged");
    const before = eventsOf(server).length;
    const forged = await postForm(server, `/dashboard/members/${member.personId}/remove`, {}, { cookie: admin.cookie });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF_TOKEN_INVALID");
    const noLeave = await postForm(server, "/dashboard/members/leave", { _csrf: "wrong" }, { cookie: member.cookie });
    expect(noLeave.status).toBe(403);
    await expectRefused(
      () =>
        postForm(
          server,
          `/dashboard/members/${member.personId}/role`,
          { _csrf: admin.csrfToken, role: "owner" },
          { cookie: admin.cookie },
        ),
      400,
      "INVALID_ENUM_VALUE",
    );
    expect(eventsOf(server).length).toBe(before);
  });

  test("in real Chromium without JavaScript: invite by the form, the invitee opens the emailed link signed in, the admin makes them admin", async () => {
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
    const adminEmail = uniqueEmail("browser-admin");
    const inviteeEmail = uniqueEmail("browser-invitee");
    const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
    try {
      const adminTab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await adminTab.goto(`${server.baseUrl}/dashboard/members`);
      await adminTab.getByLabel("Email").fill(adminEmail);
      await adminTab.getByRole("button", { name: "Email me a sign-in link" }).click();
      await adminTab.goto(await relay.linkFor(adminEmail));
      expect(new URL(adminTab.url()).pathname).toBe("/dashboard/members");
      expect(await adminTab.getByRole("heading", { level: 1 }).textContent()).toBe("Members");

      await adminTab.getByLabel("Email", { exact: true }).fill(inviteeEmail);
      await adminTab.getByLabel("Role", { exact: true }).selectOption("member");
      await adminTab.getByRole("button", { name: "Send invitation" }).click();
      expect(await adminTab.locator(".done").textContent()).toContain("Invitation sent");
      expect(await adminTab.getByRole("cell", { name: inviteeEmail }).count()).toBe(1);

      // The invitee, in a browser of their own, opens the emailed link: signed in, on the dashboard.
      const inviteeTab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      const landed: string[] = [];
      inviteeTab.on("request", (r) => landed.push(new URL(r.url()).pathname));
      await inviteeTab.goto(await relay.invitationFor(inviteeEmail));
      expect(landed).toEqual(["/api/invitations/callback", "/dashboard", "/dashboard/jobs"]);
      await inviteeTab.goto(`${server.baseUrl}/dashboard/members`);
      expect(await inviteeTab.getByRole("heading", { level: 1 }).textContent()).toBe("Members");
      expect(await inviteeTab.locator("header.shell").textContent()).toContain(inviteeEmail);
      expect(await inviteeTab.getByRole("button", { name: "Send invitation" }).count()).toBe(0);

      // The admin makes the invitee an admin through the row's form; the page shows it.
      await adminTab.goto(`${server.baseUrl}/dashboard/members`);
      await adminTab.getByLabel(`Role of ${inviteeEmail}`, { exact: true }).selectOption("admin");
      await adminTab.getByRole("button", { name: `Change role of ${inviteeEmail}` }).click();
      expect(await adminTab.locator(".done").textContent()).toContain("Role changed.");
      const row = adminTab.getByRole("row").filter({ hasText: inviteeEmail });
      expect(await row.locator("td.role").textContent()).toBe("admin");
      await inviteeTab.reload();
      expect(await inviteeTab.getByRole("button", { name: "Send invitation" }).count()).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
