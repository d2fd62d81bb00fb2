import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CORPUS_ROOT, labelledChecks, loadCases, type EmailCase, type WebCase } from "../../scripts/corpus/cases";
import { buildEmailHtml, composeEmailCase } from "../../scripts/corpus/compose-email";

/**
 * The real-world corpus is a yardstick only while every case says where it came from, under which licence,
 * and what each check should answer on it; `npm run accuracy` does the measuring.
 */
const RESERVED = [
  /^ActiveCampaign\/postmark-templates$/i,
  /^wildbit\/postmark-templates$/i,
  /^mailchimp\/email-blueprints$/i,
  /^leemunroe\/responsive-html-email-template$/i,
  /\/Cerberus$/i,
  /^sendgrid\/email-templates$/i,
  /^mjmlio\/email-templates$/i,
  /^GoogleChrome\/lighthouse$/i,
  /^h5bp\/html5-boilerplate$/i,
  /^mdn\/beginner-html-site/i,
  /^twbs\/bootstrap$/i,
  /^w3c\/wai-demo-?site$/i,
  /^dequelabs\/axe-core$/i,
];

const web = loadCases("web");
const email = loadCases("email");

function commonRules(c: WebCase | EmailCase, subject: "web" | "email") {
  expect(RESERVED.some((r) => r.test(c.source.repository))).toBe(false);
  expect(existsSync(join(CORPUS_ROOT, c.source.licenceFile))).toBe(true);
  expect(c.source.url).toContain(c.source.commit);
  // One label per check that runs without configuration: no more, no fewer.
  expect(Object.keys(c.labels).sort()).toEqual(labelledChecks(subject).sort());
}

test("the corpus holds at least 60 real webpages and 40 real emails", () => {
  expect(web.length).toBeGreaterThanOrEqual(60);
  expect(email.length).toBeGreaterThanOrEqual(40);
});

describe("the real-world webpage corpus", () => {
  test.each(web.map((c) => [c.id, c] as const))("%s: source, licence, entry and a label per check", (_id, c) => {
    commonRules(c, "web");
    expect(existsSync(join(c.dir, "site", c.entry))).toBe(true);
  });

  // A file the page loads from its own folder that is not in the repository (a path .gitignore left out, such as a
  // dist/ folder) changes the page Assay measures without a word.
  test.each(web.map((c) => [c.id, c] as const))(
    "%s: every stylesheet, script and picture its entry loads is there",
    (_id, c) => {
      const entry = join(c.dir, "site", c.entry);
      const html = readFileSync(entry, "utf8");
      const local = [
        ...html.matchAll(/\b(?:href|src)="([^"#?]+\.(?:css|js|mjs|png|jpe?g|gif|svg|webp|ico|woff2?))["#?]/gi),
      ]
        .map((m) => m[1]!)
        .filter((u) => !/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(u));
      const absent = local.filter((u) =>
        u.startsWith("/")
          ? !existsSync(join(c.dir, "site", decodeURIComponent(u)))
          : !existsSync(join(dirname(entry), decodeURIComponent(u))),
      );
      const ignored = local.filter(
        (u) =>
          Bun.spawnSync([
            "git",
            "check-ignore",
            "-q",
            u.startsWith("/") ? join(c.dir, "site", u) : join(dirname(entry), u),
          ]).exitCode === 0,
      );
      expect({ absent, ignored }).toEqual({ absent: [], ignored: [] });
    },
  );
});

describe("the real-world email corpus", () => {
  test.each(email.map((c) => [c.id, c] as const))(
    "%s: source, licence, a build that succeeds and a label per check",
    async (_id, c) => {
      commonRules(c, "email");
      const { raw } = await composeEmailCase(c);
      const text = raw.toString("latin1");
      expect(text).toMatch(/^Message-ID: </m);
      expect(text).toMatch(/^Content-Type: (text\/html|multipart\/alternative)/m);
      if (c.delivery.listUnsubscribe) expect(text).toMatch(/^List-Unsubscribe:\s/m);
    },
  );
});

test("an MJML case is built with the stylesheets and partials it includes (MJML 5 skips <mj-include> by default)", async () => {
  const c = email.find((x) => x.id === "pagopa-io-mail-validation");
  if (!c) throw new Error("the case pagopa-io-mail-validation is missing");
  const html = await buildEmailHtml(c);
  expect(html).toContain("prefers-color-scheme: dark"); // ../style.css, <mj-include type="css">
  expect(html).toContain("Ricevi questa comunicazione"); // ../partials/footer-mail-validation.mjml
});
