import { failWith, pass, type WebValidation } from "../types";
import { quote } from "../shared/quote";
import { domCheck } from "./_helpers";

export const noKeyboardTrap: WebValidation = {
  meta: domCheck({
    id: "no-keyboard-trap",
    name: "No keyboard trap",
    category: "accessibility",
    severity: "critical",
    summary: "Pressing Tab moves focus through the page and out of it: focus never goes round in a loop (WCAG 2.1.2).",
    judgment:
      "The page is driven with the keyboard in Chromium at desktop-md, after it has loaded: Tab is pressed from where the page put focus until focus leaves the page for the browser's own controls (as it happens: a script that focuses the page again afterwards cannot take focus back from them in a reader's browser), each press given 40 ms for the page's focus and blur handlers to run. When focus comes back to an element it was at before leaving the page, Escape is pressed (a dialog that keeps focus inside it may close on it) and Tab goes on; a loop again is a keyboard trap, unless a key the page's visible text announces (\"Press Ctrl+M to exit\": up to 3 such keys are pressed, each followed by Tab) lets focus out, as WCAG allows when the user is told the way: it passes, with a finding that says which key. When an element of the trap offers help (its text says help, or asks how) and Enter on it acts in the page (a button, a link to a place in the page), Tab is pressed round to it, then Enter, and the keys the text it revealed announces are tried the same way. A loop that holds every element in the tab order is the page wrapping focus round itself, not a trap: it passes with a finding that needs review. A trap fails with the elements Tab goes round in, saying whether Shift+Tab leaves it backwards (Tab forwards still never gets past it); one whose help could not be followed in the page, or names no key, passes with a finding that needs review. A walk that reaches 200 presses without leaving the page is not judged further (a pass that says so).",
    needs: ["keyboard"],
    references: [
      {
        title: "WCAG 2.2 SC 2.1.2 No Keyboard Trap",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/no-keyboard-trap",
      },
      {
        title: "W3C ACT rule a1b64e: Focusable element has no keyboard trap via standard navigation",
        url: "https://www.w3.org/WAI/standards-guidelines/act/rules/a1b64e/",
      },
      {
        title: "W3C ACT rule ebe86a: Focusable element has no keyboard trap via non-standard navigation",
        url: "https://www.w3.org/WAI/standards-guidelines/act/rules/ebe86a/",
      },
    ],
  }),
  evaluate(artifacts) {
    const walk = artifacts.keyboard;
    if (!walk) throw new Error("no keyboard walk gathered");
    const loop = walk.trap ?? [];
    const names = loop.map((s) => (s.text ? `${s.selector} ${quote(s.text, 30)}` : s.selector)).join(" → ");
    const selectors = loop.map((l) => l.selector);
    if (walk.end === "left" && walk.escapedBy) {
      const leftBy = walk.leftBy ?? "announced key";
      const told = walk.helpFollowed
        ? `${walk.escapedBy}, the key the help behind ${quote(walk.helpFollowed.text, 40)} tells of`
        : `${walk.escapedBy}, the key the page's text announces`;
      return pass(`Tab went round ${names} even after Escape, and ${told}, let focus out of it.`, [
        {
          message: `Tab keeps focus in a loop of ${loop.length} element(s) until ${told}, lets it out: ${names}`,
          selector: walk.helpFollowed?.selector ?? loop[0]?.selector ?? "html",
          measured: { outcome: "pass", loop: selectors, leftBy, key: walk.escapedBy },
        },
      ]);
    }
    if (walk.end === "left")
      return pass(
        `Tab took focus out of the page after ${walk.presses} press(es), through ${walk.tabbable} element(s) in the tab order.`,
      );
    if (walk.end === "capped")
      return pass(
        `Tab was pressed ${walk.presses} times without focus leaving the page and without coming back to a stop (${walk.tabbable} element(s) in the tab order): not judged further.`,
      );
    // Every element in the tab order is in the loop: the page wraps focus round itself (a script sends Tab from the
    // last element to the first) rather than holding it in a part of it.
    if (loop.length >= walk.tabbable)
      return pass(
        `Tab went round all ${loop.length} stop(s) of the page without reaching the browser's controls: the page wraps focus round itself, which keeps no part of it out of reach.`,
        [
          {
            message: `needs review: Tab wraps round the whole page (${loop.length} stops) and never reaches the browser's controls`,
            selector: loop[0]?.selector ?? "html",
            measured: { outcome: "needs review", stops: loop.length },
          },
        ],
      );
    if (walk.trapHelp)
      return pass(
        `Tab went round ${names} even after Escape, and no key the page's text announces let focus out; ${walk.trapHelp.selector} offers help that Enter could not follow in the page, or that names no key, which a person must follow to judge.`,
        [
          {
            message: `needs review: Tab keeps focus in a loop of ${loop.length} element(s), and ${quote(walk.trapHelp.text, 40)} may tell how to leave it: ${names}`,
            selector: walk.trapHelp.selector,
            measured: { outcome: "needs review", loop: selectors },
          },
        ],
      );
    const backwards = walk.leftBy === "Shift+Tab" ? "; Shift+Tab leaves it backwards, but Tab never gets past it" : "";
    const help = walk.helpFollowed
      ? `; the keys the help behind ${quote(walk.helpFollowed.text, 40)} tells of do not let focus out`
      : "";
    return failWith(
      `Let keyboard users Tab out of ${loop[0]?.selector ?? "the page"}: focus goes round ${loop.length} element(s) and never leaves`,
      loop.slice(0, 1).map((s) => ({
        message: `Tab keeps focus in a loop of ${loop.length} element(s), even after Escape${help}${backwards}: ${names}`,
        selector: s.selector,
        measured: { loop: selectors, presses: walk.presses, leftBy: walk.leftBy ?? null },
      })),
      `After ${walk.presses} Tab press(es) focus came back to ${loop[0]?.selector} without leaving the page, twice (Escape pressed in between)${help}${backwards}: ${names}.`,
    );
  },
};
