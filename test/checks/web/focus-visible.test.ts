import { expect, test } from "bun:test";
import { focusVisible } from "../../../src/validations/web/focus-visible";
import { artifacts, evaluate, keyboardWalk as walk, selectors } from "../support/web-artifacts";

test("stops that change the screen when focused pass; a frame from another origin is not measured", async () => {
  const out = await evaluate(
    focusVisible,
    artifacts({
      keyboard: walk({
        stops: [
          { selector: "#a", text: "Home", indicator: true },
          { selector: "iframe iframe", text: "" },
        ],
      }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("each of the 1 stop(s)");
});

test("a stop whose screen is the same focused and blurred fails, by selector", async () => {
  const out = await evaluate(
    focusVisible,
    artifacts({
      keyboard: walk({
        stops: [
          { selector: "#a", text: "Home", indicator: true },
          { selector: "#b", text: "Contact", indicator: false },
        ],
        stopsCapped: true,
      }),
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#b"]);
  expect(out.findings[0]!.message).toBe('"Contact" shows no focus: the screen is the same focused and blurred');
  expect(out.reasoning).toContain("the rest not measured");
});

test("a page Tab does not leave is not measured: a pass that says why", async () => {
  const out = await evaluate(
    focusVisible,
    artifacts({ keyboard: walk({ end: "trap", trap: [{ selector: "#a", text: "" }] }) }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("it went round in a loop");
});
