import { expect, test } from "bun:test";
import { consoleErrors } from "../../../src/validations/web/console-errors";
import { artifacts, evaluate } from "../support/web-artifacts";

test("a quiet console passes; the browser's own resource-load messages do not count", async () => {
  const out = await evaluate(
    consoleErrors,
    artifacts({
      console: [
        {
          kind: "console.error",
          text: "Failed to load resource: the server responded with a status of 404 (Not Found)",
          url: "https://shop.example/x.png",
        },
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("1 resource-load message(s)");
});

test("console.error and uncaught exceptions fail, each a finding with its text and script", async () => {
  const out = await evaluate(
    consoleErrors,
    artifacts({
      console: [
        { kind: "console.error", text: "config missing" },
        {
          kind: "uncaught",
          text: "TypeError: Cannot read properties of null (reading 'classList')",
          url: "https://shop.example/app.js",
        },
        { kind: "uncaught", text: "Failed to load resource is not a browser message when thrown" },
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.text)).toEqual([
    "config missing",
    "TypeError: Cannot read properties of null (reading 'classList')",
    "Failed to load resource is not a browser message when thrown",
  ]);
  expect(out.findings[0]!.message).toBe('console.error: "config missing"');
  expect(out.findings[1]).toMatchObject({
    message: `uncaught exception: "TypeError: Cannot read properties of null (reading 'classList')"`,
    url: "https://shop.example/app.js",
  });
  expect(out.reasoning).toStartWith("2 uncaught exception(s) or unhandled rejection(s) and 1 console.error message(s)");
});

test("dialogs the page opened are findings with how each was answered; a dialog alone does not fail", async () => {
  const dialogs = [
    { type: "prompt" as const, message: "What is your name?", answer: "Assay" },
    { type: "alert" as const, message: "Nice to meet you", answer: null },
  ];
  const quiet = await evaluate(consoleErrors, artifacts({ console: [], dialogs }));
  expect(quiet.verdict).toBe("pass");
  expect(quiet.findings.map((f) => f.message)).toEqual([
    'prompt() dialog: "What is your name?" (answered "Assay")',
    'alert() dialog: "Nice to meet you" (dismissed)',
  ]);
  expect(quiet.reasoning).toContain("opened 2 dialog(s)");
  const noisy = await evaluate(
    consoleErrors,
    artifacts({ console: [{ kind: "console.error", text: "boom" }], dialogs }),
  );
  expect(noisy.verdict).toBe("fail");
  expect(noisy.findings.map((f) => f.message)).toEqual([
    'console.error: "boom"',
    'prompt() dialog: "What is your name?" (answered "Assay")',
    'alert() dialog: "Nice to meet you" (dismissed)',
  ]);
});
