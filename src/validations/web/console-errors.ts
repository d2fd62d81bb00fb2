import type { DialogEntry } from "../../capture/artifacts";
import { SCRIPT_STALL_MS } from "../../capture/script-watchdog";
import { pass, type Finding, type WebValidation } from "../types";
import { domCheck } from "./_helpers";
import { quote } from "../shared/quote";

/**
 * Chromium's own messages about a resource that did not load ("Failed to load resource: the server responded
 * with a status of 404", "... net::ERR_BLOCKED_BY_CLIENT"). They are network results, judged by
 * broken-images, broken-links and mixed-content, not errors in the page's code.
 */
const RESOURCE_LOAD = /^Failed to load resource\b/i;

/** A dialog the page opened while loading: not an error, but what a visitor would have had to answer. */
function dialogFinding(d: DialogEntry): Finding {
  const answered = d.answer === null ? "dismissed" : `answered ${JSON.stringify(d.answer)}`;
  return {
    message: `${d.type}() dialog: ${quote(d.message, 200)} (${answered})`,
    text: d.message,
    viewport: "desktop-md",
  };
}

export const consoleErrors: WebValidation = {
  meta: domCheck({
    id: "console-errors",
    name: "No JavaScript errors",
    category: "functional",
    severity: "major",
    summary: "The page loads without uncaught exceptions, unhandled promise rejections or console.error messages.",
    judgment: `The page is loaded at desktop-md (1280×800) and watched through load and a settle period (network quiet, capped). Fails on any uncaught exception, unhandled promise rejection or console.error call. Chromium's own "Failed to load resource" messages (a 404 image, a refused request) are network results judged by other checks, not page errors, and do not count. Dialogs the page opens (alert, confirm, prompt, beforeunload) are answered so the page can load (alert and confirm dismissed, prompt answered "Assay", at most 20 shown) and listed as findings; a dialog alone does not fail the check. A script that keeps the page's main thread busy for more than ${SCRIPT_STALL_MS / 1000} s while it loads and settles (an endless loop) is stopped so the page can be checked, and fails the check as an error of the page.`,
    needs: ["console"],
    references: [
      { title: "MDN: console.error()", url: "https://developer.mozilla.org/en-US/docs/Web/API/console/error_static" },
      {
        title: "Lighthouse: browser errors were logged to the console",
        url: "https://developer.chrome.com/docs/lighthouse/best-practices/errors-in-console",
      },
    ],
  }),
  evaluate(artifacts) {
    const entries = artifacts.console ?? [];
    const resourceMessages = entries.filter((e) => e.kind === "console.error" && RESOURCE_LOAD.test(e.text));
    const errors = entries.filter((e) => !resourceMessages.includes(e));
    const ignored = resourceMessages.length
      ? ` ${resourceMessages.length} resource-load message(s) from the browser were not counted.`
      : "";
    const dialogs = artifacts.dialogs ?? [];
    const answered = dialogs.length
      ? ` The page opened ${dialogs.length} dialog(s), answered so it could load (listed as findings).`
      : "";
    if (errors.length === 0)
      return pass(
        `No uncaught exception and no console.error during load and settle at desktop-md.${ignored}${answered}`,
        dialogs.map(dialogFinding),
      );
    const errorFindings: Finding[] = errors.map((e) => ({
      message: `${e.kind === "uncaught" ? "uncaught exception" : "console.error"}: ${quote(e.text, 200)}`,
      text: e.text,
      viewport: "desktop-md",
      ...(e.url ? { url: e.url } : {}),
    }));
    const findings = [...errorFindings, ...dialogs.map(dialogFinding)];
    const uncaught = errors.filter((e) => e.kind === "uncaught").length;
    const first = errors[0]!;
    const more = errors.length > 1 ? `; +${errors.length - 1} more` : "";
    return {
      verdict: "fail",
      reason: `Fix ${errors.length} JavaScript error(s) logged while the page loads at desktop-md (${quote(first.text, 120)}${first.url ? ` in ${first.url}` : ""}${more})`,
      reasoning: `${uncaught} uncaught exception(s) or unhandled rejection(s) and ${errors.length - uncaught} console.error message(s) during load and settle at desktop-md.${ignored}${answered}`,
      findings,
    };
  },
};
