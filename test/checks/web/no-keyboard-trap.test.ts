import { expect, test } from "bun:test";
import { noKeyboardTrap } from "../../../src/validations/web/no-keyboard-trap";
import { artifacts, evaluate, keyboardWalk as walk, selectors } from "../support/web-artifacts";

test("focus that Tab takes out of the page passes", async () => {
  const out = await evaluate(noKeyboardTrap, artifacts({ keyboard: walk({}) }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("after 4 press(es)");
});

test("a loop Tab cannot leave fails at its first element, naming every element in it", async () => {
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({
      keyboard: walk({
        end: "trap",
        presses: 7,
        trap: [
          { selector: "#email", text: "" },
          { selector: "#join", text: "Join" },
        ],
      }),
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#email"]);
  expect(out.findings[0]!.message).toBe(
    'Tab keeps focus in a loop of 2 element(s), even after Escape: #email → #join "Join"',
  );
  expect(out.findings[0]!.measured).toEqual({ loop: ["#email", "#join"], presses: 7, leftBy: null });
});

test("a loop Shift+Tab leaves backwards still fails, since Tab never gets past it, and says so", async () => {
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({
      keyboard: walk({
        end: "trap",
        presses: 5,
        trap: [{ selector: "#b1", text: "One" }],
        leftBy: "Shift+Tab",
        escapedBy: "Shift+Tab",
      }),
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]!.message).toContain("Shift+Tab leaves it backwards, but Tab never gets past it");
  expect(out.findings[0]!.measured).toEqual({ loop: ["#b1"], presses: 5, leftBy: "Shift+Tab" });
});

test("a trap the keys its help tells of do not leave fails, naming the help", async () => {
  const help = { selector: "#help", text: "How to leave" };
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({ keyboard: walk({ end: "trap", trap: [{ selector: "#b1", text: "One" }, help], helpFollowed: help }) }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]!.message).toContain('the keys the help behind "How to leave" tells of do not let focus out');
  expect(out.findings[0]!.measured).toMatchObject({ leftBy: null });
});

test("a walk that reaches its cap without a loop passes and says it was not judged further", async () => {
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({ keyboard: walk({ end: "capped", presses: 200, tabbable: 450 }) }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("not judged further");
});

test("without the keyboard walk the check cannot judge", async () => {
  await expect(evaluate(noKeyboardTrap, artifacts())).rejects.toThrow("no keyboard walk gathered");
});

test("a trap that a key the page announces lets focus out of passes, saying which key", async () => {
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({
      keyboard: walk({ end: "left", escapedBy: "Control+m", trap: [{ selector: "#btn1", text: "Button 1" }] }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("Control+m, the key the page's text announces");
  expect(out.findings[0]!.measured).toEqual({
    outcome: "pass",
    loop: ["#btn1"],
    leftBy: "announced key",
    key: "Control+m",
  });
});

test("a trap that the key its help reveals lets focus out of passes, at the help it followed", async () => {
  const help = { selector: "#help", text: "How to go on" };
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({
      keyboard: walk({
        end: "left",
        leftBy: "help",
        escapedBy: "Control+m",
        helpFollowed: help,
        trap: [{ selector: "#btn1", text: "Button 1" }, help],
      }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('Control+m, the key the help behind "How to go on" tells of');
  expect(selectors(out)).toEqual(["#help"]);
  expect(out.findings[0]!.measured).toMatchObject({ outcome: "pass", leftBy: "help", key: "Control+m" });
});

test("a trap with an element that offers help the walk could not follow passes with a finding that needs review, at that element", async () => {
  const out = await evaluate(
    noKeyboardTrap,
    artifacts({
      keyboard: walk({
        end: "trap",
        trap: [
          { selector: "#btn1", text: "Button 1" },
          { selector: "#help", text: "How to leave" },
        ],
        trapHelp: { selector: "#help", text: "How to leave" },
      }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(selectors(out)).toEqual(["#help"]);
  expect(out.findings[0]!.measured).toEqual({ outcome: "needs review", loop: ["#btn1", "#help"] });
});

test("a loop that holds every element in the tab order is the page wrapping focus round itself: a pass with a finding that needs review", async () => {
  const loop = [
    { selector: "#skip", text: "Skip to main content" },
    { selector: "#home", text: "Home" },
    { selector: "#last", text: "Contact" },
  ];
  const out = await evaluate(noKeyboardTrap, artifacts({ keyboard: walk({ end: "trap", tabbable: 3, trap: loop }) }));
  expect(out.verdict).toBe("pass");
  expect(out.findings[0]!.measured).toEqual({ outcome: "needs review", stops: 3 });
  expect(out.reasoning).toContain("wraps focus round itself");
});
