import { expect, test } from "bun:test";
import { emailNoMergeTags } from "../../../src/validations/email/email-no-merge-tags";
import { email, evaluate, htmlDom, textRun, withDom } from "../support/email-artifacts";

const GREETING = "html > body > p:nth-of-type(1)";

test("passes rendered copy; template syntax inside <code>/<pre> and 4-space-indented plain-text lines is a code sample (the fixture's near miss)", async () => {
  const visibleText =
    "Hi Sam, three single-origin beans.\nOur template shows the greeting like this:\nHello, {{ customer.first_name }}!";
  const dom = {
    visibleText,
    visibleTextOutsideCode: "Hi Sam, three single-origin beans.\nOur template shows the greeting like this:",
    textRuns: [
      textRun(GREETING, "Hi Sam, three single-origin beans."),
      textRun("html > body > pre > code", "Hello, {{ customer.first_name }}!", 14, { inCode: true }),
    ],
  };
  const text = "Hi Sam, three single-origin beans.\n\n    Hello, {{ customer.first_name }}!\n\tHi %%FirstName%%\n";
  const out = await evaluate(emailNoMergeTags, await withDom(dom, { text }));
  expect(out.verdict).toBe("pass");
});

test("fails a merge tag in the HTML body and the plain text, naming the element that holds it", async () => {
  const body = "Our spring roast is here\nHi *|FNAME|*, three single-origin beans.";
  const dom = {
    visibleText: body,
    visibleTextOutsideCode: body,
    textRuns: [
      textRun("html > body > h1", "Our spring roast is here", 28),
      textRun(GREETING, "Hi *|FNAME|*, three single-origin beans."),
    ],
  };
  const out = await evaluate(
    emailNoMergeTags,
    await withDom(dom, { text: "Hi *|FNAME|*, three single-origin beans." }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector])).toEqual([
    ['Mailchimp merge tag *|X|* "*|FNAME|*" in the HTML body', GREETING],
    ['Mailchimp merge tag *|X|* "*|FNAME|*" in the text/plain part', undefined],
  ]);
  expect(out.findings[0]!.text).toContain("Hi *|FNAME|*,");
});

test("fails each syntax in the subject and the preheader", async () => {
  const cases: Array<[string, string]> = [
    ["{{ first_name }}", "{{ }} template variable"],
    ["{% if vip %}", "{% %} template tag"],
    ["%%FirstName%%", "%%X%% merge field"],
    ["${user.name}", "${ } interpolation"],
    ["[% name %]", "[% %] template tag"],
    ["<%= name %>", "<% %> template tag"],
    ["[FIRSTNAME]", "[FIELD] placeholder"],
  ];
  for (const [tag, label] of cases) {
    const subject = await evaluate(
      emailNoMergeTags,
      await email({ headers: { Subject: `Hello ${tag}, your roast` }, text: "Hello" }),
    );
    expect(subject.findings.map((f) => f.message)).toEqual([`${label} ${JSON.stringify(tag)} in the subject`]);
  }
  const preheader = { text: "Hi {{ name }}, beans inside", selector: "html > body > div", hiddenBy: "display:none" };
  const out = await evaluate(emailNoMergeTags, await email({ html: "<p>x</p>" }, { htmlDom: htmlDom({ preheader }) }));
  expect(out.findings).toEqual([
    {
      message: '{{ }} template variable "{{ name }}" in the preheader',
      text: "Hi {{ name }}, beans inside",
      selector: "html > body > div",
    },
  ]);
});

test("template syntax fails by its shape, whatever the field is called; bracketed prose passes (the same detector as no-unrendered-placeholders)", async () => {
  const headline = await evaluate(
    emailNoMergeTags,
    await email({ headers: { Subject: "[[HEADLINE]]" }, text: "Write to us at [POSTAL_ADDRESS]." }),
  );
  expect(headline.findings.map((f) => f.message)).toEqual([
    '[[X]] field "[[HEADLINE]]" in the subject',
    '[FIELD] placeholder "[POSTAL_ADDRESS]" in the text/plain part',
  ]);
  const fields = [
    "[FirstName]",
    "[[CompanyName]]",
    "[firstname,fallback=there]",
    "{$name}",
    "%%first_name%%",
    "[[PERMALINK]]",
  ];
  for (const tag of fields) {
    const out = await evaluate(emailNoMergeTags, await email({ headers: { Subject: `Hello ${tag}` }, text: "Hello" }));
    expect({ tag, verdict: out.verdict }).toEqual({ tag, verdict: "fail" });
  }
  const prose = await evaluate(
    emailNoMergeTags,
    await email({
      headers: { Subject: "[LAST CHANCE] [SALE] [Updated] Our hours [1]" },
      text: "The report [PDF] was recieved [sic] on time. [VIDEO] How we roast.",
    }),
  );
  expect({ verdict: prose.verdict, findings: prose.findings }).toEqual({ verdict: "pass", findings: [] });
});

test("a field in angle brackets that the reader sees fails (sendwithus Mantra's greeting); addresses and arrows in angle brackets pass", async () => {
  const greeting = "Hi <First Name>\nYour 20% coupon is inside.";
  const dom = {
    visibleText: greeting,
    visibleTextOutsideCode: greeting,
    textRuns: [
      textRun(GREETING, "Hi <First Name>"),
      textRun("html > body > p:nth-of-type(2)", "Your 20% coupon is inside."),
    ],
  };
  const out = await evaluate(
    emailNoMergeTags,
    await withDom(dom, {
      headers: { Subject: "Your coupon, <FIRSTNAME>" },
      text: "Hi <first_name>,\nyour coupon is inside.",
    }),
  );
  expect(out.findings.map((f) => [f.message, f.selector])).toEqual([
    ['<Field> placeholder "<FIRSTNAME>" in the subject', undefined],
    ['<Field> placeholder "<First Name>" in the HTML body', GREETING],
    ['<Field> placeholder "<first_name>" in the text/plain part', undefined],
  ]);
  const prose =
    "Questions? Write to Northwind <info@example.com> or see <https://northwind.example/help>.\nRoast -> grind -> brew, if a < b. We <3 beans.";
  const clean = await evaluate(
    emailNoMergeTags,
    await withDom(
      { visibleText: prose, visibleTextOutsideCode: prose },
      { headers: { Subject: "Roast -> grind -> brew <3" }, text: prose },
    ),
  );
  expect({ verdict: clean.verdict, findings: clean.findings }).toEqual({ verdict: "pass", findings: [] });
});
