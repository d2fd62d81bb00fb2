import { expect, test } from "bun:test";
import { emailProviderRequirements } from "../../../src/validations/email/email-provider-requirements";
import { authentication, email, evaluate } from "../support/email-artifacts";

type Over = Parameters<typeof authentication>[0];
const ONE_CLICK = {
  "List-Unsubscribe": "<https://northwind.example/u/8f3c>, <mailto:unsub@northwind.example>",
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
};

const judged = async (over: Over, headers: Record<string, string> = ONE_CLICK, params: Record<string, unknown> = {}) =>
  evaluate(
    emailProviderRequirements,
    await email({ text: "Our spring roast is here", headers }, { authentication: authentication(over) }),
    params,
  );

type Row = { requirement: string; level: string; met: boolean | null };
const providers = (out: Awaited<ReturnType<typeof judged>>) =>
  Object.fromEntries(
    out.findings.map((f) => [
      f.measured!.provider as string,
      {
        verdict: f.measured!.verdict,
        rows: Object.fromEntries((f.measured!.requirements as Row[]).map((r) => [r.requirement, r.met])),
      },
    ]),
  );

test("a bulk message from an ESP: SPF passes unaligned on the ESP's bounce domain, DKIM aligned, DMARC p=none: every provider passes", async () => {
  const out = await judged({
    spf: { domain: "bounces.esp.example", aligned: false },
    dmarc: { policy: "none", record: "v=DMARC1; p=none" },
  });
  expect(out.verdict).toBe("pass");
  const p = providers(out);
  expect(Object.keys(p)).toEqual(["gmail", "yahoo", "outlook"]);
  expect(p.gmail).toEqual({
    verdict: "pass",
    rows: {
      "spf-pass": true,
      "dkim-pass": true,
      "dmarc-published": true,
      "dmarc-aligned": true,
      "one-click-unsubscribe": true,
      "spam-rate": null,
    },
  });
  expect(out.findings[0]!.text).toBe("Not checked: a spam complaint rate below 0.3% (Postmaster Tools)");
  expect(out.findings[2]!.url).toContain("techcommunity.microsoft.com");
});

test("near miss: one-click unsubscribe missing its Post header fails Gmail and Yahoo, not Outlook.com, where it is only recommended", async () => {
  const out = await judged({}, { "List-Unsubscribe": "<https://northwind.example/u/8f3c>" });
  expect(out.verdict).toBe("fail");
  const p = providers(out);
  expect([p.gmail!.verdict, p.yahoo!.verdict, p.outlook!.verdict]).toEqual(["fail", "fail", "pass"]);
  expect(p.outlook!.rows["one-click-unsubscribe"]).toBe(false);
  expect(out.findings[2]!.measured!.requirements).toContainEqual(
    expect.objectContaining({ requirement: "one-click-unsubscribe", level: "recommended", met: false }),
  );
  expect(out.reason).toStartWith(
    "Gmail rejects it or sends it to spam (no List-Unsubscribe-Post: List-Unsubscribe=One-Click)",
  );
  expect(out.reason).not.toContain("5.7.515");
  expect(out.reason).toContain('"List-Unsubscribe-Post: List-Unsubscribe=One-Click"');
});

test("a message without List-Unsubscribe is not judged on one-click unless messageType says marketing", async () => {
  const receipt = await judged({}, {});
  expect(receipt.verdict).toBe("pass");
  expect(providers(receipt).gmail!.rows["one-click-unsubscribe"]).toBeNull();
  const marketing = await judged({}, {}, { messageType: "marketing" });
  expect(marketing.verdict).toBe("fail");
  expect(providers(marketing).gmail!.rows["one-click-unsubscribe"]).toBe(false);
  expect(marketing.reason).toContain("Gmail rejects it or sends it to spam (no List-Unsubscribe header)");
});

test("transactional mail is not asked for one-click unsubscribe", async () => {
  const out = await judged({}, {}, { messageType: "transactional" });
  expect(out.verdict).toBe("pass");
  expect(providers(out).gmail!.rows["one-click-unsubscribe"]).toBeNull();
  expect(out.findings[0]!.text).toContain("one-click unsubscribe");
});

test("near miss: DKIM aligned and DMARC passing but SPF fails: every provider fails on SPF, Outlook.com with 550 5.7.515", async () => {
  const out = await judged({ spf: { result: "softfail", aligned: false } });
  expect(out.verdict).toBe("fail");
  const p = providers(out);
  expect([p.gmail!.verdict, p.yahoo!.verdict, p.outlook!.verdict]).toEqual(["fail", "fail", "fail"]);
  expect(p.outlook!.rows).toMatchObject({ "spf-pass": false, "dkim-pass": true, "dmarc-aligned": true });
  expect(out.findings[2]!.message).toBe("Outlook.com (outlook.com, hotmail.com, live.com): misses SPF passes");
  expect(out.reason).toContain('Outlook.com rejects it with "550 5.7.515');
  expect(out.reason).toContain("list the sending server 192.0.2.10 in the SPF record of bounce.northwind.example");
});

test("no DMARC record: SPF and DKIM pass aligned, but every provider wants a published DMARC record", async () => {
  const out = await judged({ dmarc: { result: "none", record: null, policy: null } });
  expect(out.verdict).toBe("fail");
  const p = providers(out);
  expect(p.outlook!.rows).toMatchObject({ "dmarc-published": false, "dmarc-aligned": true });
  expect(out.reason).toContain('publish a DMARC record at _dmarc.northwind.example (at least "v=DMARC1; p=none")');
});

test("an ESP's signature only: DKIM passes for the ESP's domain, SPF for its bounce domain, nothing aligns with From", async () => {
  const out = await judged({
    spf: { domain: "bounces.esp.example", aligned: false },
    dkim: [{ signingDomain: "esp.example", aligned: false }],
    dmarc: { result: "fail", policy: "none", record: "v=DMARC1; p=none" },
  });
  expect(out.verdict).toBe("fail");
  const p = providers(out);
  expect(p.gmail!.rows).toMatchObject({
    "spf-pass": true,
    "dkim-pass": true,
    "dmarc-published": true,
    "dmarc-aligned": false,
  });
  expect(out.reason).toContain("sign with DKIM as d=northwind.example");
});

test("an unsigned message fails DKIM at every provider", async () => {
  const out = await judged({ dkim: [] });
  expect(providers(out).outlook!.rows["dkim-pass"]).toBe(false);
  expect(out.reason).toContain("sign the message with DKIM (d=northwind.example)");
});

test("DNS that did not answer is an error, not a fail; so are results never computed", async () => {
  const dns = await judged({ dmarc: { result: "temperror", error: "ETIMEOUT" } });
  expect(dns.verdict).toBe("error");
  expect(dns.reason).toContain("DMARC lookup for northwind.example failed (ETIMEOUT)");
  const noIp = await judged({ spf: null, spfSkipped: "the client IP was not recorded" });
  expect(noIp.verdict).toBe("error");
  const missing = await evaluate(emailProviderRequirements, await email({ text: "Hi" }));
  expect(missing.verdict).toBe("error");
});
