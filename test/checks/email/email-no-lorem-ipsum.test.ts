import { expect, test } from "bun:test";
import { emailNoLoremIpsum } from "../../../src/validations/email/email-no-lorem-ipsum";
import { email, evaluate, textRun, withDom } from "../support/email-artifacts";

const FILLER = "html > body > p:nth-of-type(2)";

test("passes real copy in the subject, the HTML body and the plain text; a lone Latin word is not filler", async () => {
  const copy = "Every bag from the Lorem estate is 20% off until Sunday.";
  const out = await evaluate(emailNoLoremIpsum, await withDom({ visibleText: copy }, { text: copy }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("subject, HTML body, text/plain part");
});

test("fails filler in the HTML body and the plain text, naming the element", async () => {
  const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.";
  const dom = {
    visibleText: `Our spring roast\n${filler}`,
    textRuns: [textRun("html > body > h1", "Our spring roast", 28), textRun(FILLER, filler)],
  };
  const out = await evaluate(emailNoLoremIpsum, await withDom(dom, { text: filler }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "Filler text in the HTML body", text: filler, selector: FILLER },
    { message: "Filler text in the text/plain part", text: filler },
  ]);
});

test("fails filler in the subject", async () => {
  const out = await evaluate(
    emailNoLoremIpsum,
    await email({ headers: { Subject: "Lorem ipsum dolor" }, text: "Hello" }),
  );
  expect(out.findings).toEqual([{ message: "Filler text in the subject", text: "Lorem ipsum dolor" }]);
});

test("filler without the classic phrases fails by its vocabulary; a Latin motto does not", async () => {
  const filler = "Maecenas sed ante pellentesque, posuere velit in, tincidunt massa.";
  const out = await evaluate(
    emailNoLoremIpsum,
    await email({
      headers: { Subject: "Semper fidelis: our anniversary roast" },
      text: `Hi Sam,\n${filler}\nLux et veritas, et cetera.`,
    }),
  );
  expect(out.findings).toEqual([
    {
      message: "Filler text in the text/plain part",
      text: "Maecenas sed ante pellentesque, posuere velit in, tincidunt",
    },
  ]);
});
