import { expect, test } from "bun:test";
import { emailAuthentication } from "../../../src/validations/email/email-authentication";
import { authentication, email, evaluate } from "../support/email-artifacts";

type Over = Parameters<typeof authentication>[0];
const judged = async (over: Over) =>
  evaluate(emailAuthentication, await email({ text: "Hello" }, { authentication: authentication(over) }));
const mechanisms = (findings: Array<{ measured?: Record<string, unknown> }>) =>
  findings.map((f) => [f.measured?.mechanism, f.measured?.result]);

test("passes SPF, DKIM and DMARC all passing and aligned, one finding per mechanism", async () => {
  const out = await judged({});
  expect(out.verdict).toBe("pass");
  expect(out.findings.map((f) => f.message)).toEqual([
    "SPF: pass for bounce.northwind.example from 192.0.2.10, aligned",
    "DKIM: pass for d=northwind.example s=s1, aligned",
    "DMARC: pass for northwind.example (p=reject)",
  ]);
});

test("fails SPF that does not list the sending server, naming the server and the record", async () => {
  const out = await judged({ spf: { result: "fail", aligned: false }, dmarc: { result: "pass" } });
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]).toMatchObject({
    message: "SPF: fail for bounce.northwind.example from 192.0.2.10",
    measured: { mechanism: "spf", result: "fail" },
  });
  expect(out.reason).toBe(
    'Add the sending server 192.0.2.10 to the SPF record of bounce.northwind.example, or send through a server it lists; it is not permitted now (record: "v=spf1 ip4:192.0.2.10 -all")',
  );
});

test("fails SPF that passes for a domain not aligned with From", async () => {
  const out = await judged({ spf: { domain: "esp.example", aligned: false } });
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]!.message).toBe("SPF: pass for esp.example from 192.0.2.10, not aligned");
  expect(out.reason).toContain("which is not aligned with the From domain northwind.example");
});

test("fails an unsigned message, and a valid signature by an unaligned domain", async () => {
  const unsigned = await judged({ dkim: [] });
  expect(unsigned.verdict).toBe("fail");
  expect(mechanisms(unsigned.findings)).toEqual([
    ["spf", "pass"],
    ["dkim", "none"],
    ["dmarc", "pass"],
  ]);
  expect(unsigned.reason).toBe(
    "Sign the message with DKIM with a key published under northwind.example (d=northwind.example)",
  );
  const esp = await judged({ dkim: [{ signingDomain: "esp.example", aligned: false }] });
  expect(esp.verdict).toBe("fail");
  expect(esp.findings[1]!.message).toBe("DKIM: pass for d=esp.example s=s1, not aligned");
  expect(esp.reason).toContain("The valid DKIM signature is by esp.example");
});

test("a body-hash failure says the message changed after signing; a second, aligned passing signature makes DKIM pass", async () => {
  const broken = await judged({ dkim: [{ result: "fail", comment: "body hash did not verify", aligned: false }] });
  expect(broken.verdict).toBe("fail");
  expect(broken.findings[1]).toMatchObject({
    message: "DKIM: fail for d=northwind.example s=s1",
    text: "body hash did not verify",
  });
  expect(broken.reason).toContain("the message was changed after it was signed");
  const rescued = await judged({ dkim: [{ result: "fail", comment: "body hash did not verify", aligned: false }, {}] });
  expect(rescued.verdict).toBe("pass");
});

test("fails a From domain without a DMARC record, saying where to publish one", async () => {
  const out = await judged({ dmarc: { result: "none", record: null, policy: null } });
  expect(out.verdict).toBe("fail");
  expect(out.findings[2]).toMatchObject({
    message: "DMARC: none for northwind.example",
    measured: { mechanism: "dmarc", result: "none" },
  });
  expect(out.reason).toContain("Publish a DMARC record at _dmarc.northwind.example");
});

test("fails a message without a single From address: DMARC is not evaluated", async () => {
  const out = await judged({ fromDomain: null, dmarc: null });
  expect(out.verdict).toBe("fail");
  expect(out.findings[2]!.message).toBe("DMARC: not evaluated (no single From address)");
});

test("a DNS failure is an error naming the lookup, not a fail", async () => {
  const out = await judged({ spf: { result: "temperror", comment: "DNS timeout" } });
  expect(out.verdict).toBe("error");
  expect(out.reason).toContain("SPF lookup for bounce.northwind.example failed (DNS timeout)");
  expect(out.findings.length).toBe(3);
  const skipped = await judged({ spf: null, spfSkipped: "the client IP was not recorded" });
  expect(skipped.verdict).toBe("error");
  expect(skipped.findings[0]).toMatchObject({ message: "SPF: not evaluated", text: "the client IP was not recorded" });
});

test("results that could not be computed at all are an error", async () => {
  const failed = await evaluate(
    emailAuthentication,
    await email({ text: "Hello" }, { authentication: { error: "SPF, DKIM and DMARC could not be evaluated: boom" } }),
  );
  expect(failed).toMatchObject({ verdict: "error", reason: "SPF, DKIM and DMARC could not be evaluated: boom" });
  const missing = await evaluate(emailAuthentication, await email({ text: "Hello" }));
  expect(missing.verdict).toBe("error");
});
