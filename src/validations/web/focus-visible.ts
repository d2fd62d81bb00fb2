import { failWith, pass, type WebValidation } from "../types";
import { quote } from "../shared/quote";
import { domCheck } from "./_helpers";

export const focusVisible: WebValidation = {
  meta: domCheck({
    id: "focus-visible",
    name: "Keyboard focus is visible",
    category: "accessibility",
    severity: "major",
    summary: "Every element Tab stops at shows that it has focus: an outline, a border, an indicator (WCAG 2.4.7).",
    judgment:
      "The page is driven with the keyboard in Chromium at desktop-md: one round of Tab from the top of the page, and at each stop the viewport is screenshotted with the element focused and again with it blurred (its blur handlers run), transitions and animations stopped and carets not drawn so that each shows a state rather than a frame of a change. A stop where not one pixel differs shows no focus, and fails. An indicator anywhere on screen counts, as does the browser's default outline. Up to 40 stops are measured (the reasoning says when there were more); a stop inside a frame from another origin is not measured. A page whose Tab never leaves it (a keyboard trap, the no-keyboard-trap check) is not measured.",
    needs: ["keyboard"],
    method: "pixels",
    references: [
      { title: "WCAG 2.2 SC 2.4.7 Focus Visible", url: "https://www.w3.org/WAI/WCAG22/Understanding/focus-visible" },
      {
        title: "W3C ACT rule oj04fd: Element in sequential focus order has visible focus",
        url: "https://www.w3.org/WAI/standards-guidelines/act/rules/oj04fd/",
      },
    ],
  }),
  evaluate(artifacts) {
    const walk = artifacts.keyboard;
    if (!walk) throw new Error("no keyboard walk gathered");
    if (walk.end !== "left")
      return pass(
        `Tab did not take focus out of the page (${walk.end === "trap" ? "it went round in a loop" : `${walk.presses} presses`}): focus was not measured.`,
      );
    const measured = walk.stops.filter((s) => s.indicator !== undefined);
    const hidden = measured.filter((s) => s.indicator === false);
    const more = walk.stopsCapped ? `; the round stopped after ${walk.stops.length} stops, the rest not measured` : "";
    if (hidden.length === 0)
      return pass(`Focus showed on screen at each of the ${measured.length} stop(s) Tab made${more}.`);
    return failWith(
      `Show where keyboard focus is on ${hidden.length} element(s): nothing on screen changes when they get focus`,
      hidden.map((s) => ({
        message: `${s.text ? quote(s.text, 40) : s.selector} shows no focus: the screen is the same focused and blurred`,
        selector: s.selector,
        measured: { indicator: false },
      })),
      `${hidden.length} of ${measured.length} Tab stop(s) looked the same focused and blurred, pixel for pixel${more}.`,
    );
  },
};
