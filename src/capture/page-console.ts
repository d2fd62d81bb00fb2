import type { Page } from "playwright-core";
import type { ConsoleEntry, DialogEntry } from "./artifact-shapes";

/** Dialogs a page may open before the rest are answered in the page without being shown (a dialog storm ends). */
const DIALOG_CAP = 20;
/** Chromium's console message when it refuses to show a page's beforeunload prompt. */
const BLOCKED_BEFOREUNLOAD = /^Blocked attempt to show a 'beforeunload' confirmation panel/;
/** What a prompt() is answered: non-empty, so a page that asks until it gets a name stops asking. */
const PROMPT_ANSWER = "Assay";

/**
 * What a page says while it is captured, recorded from before it loads: console errors, uncaught exceptions, and
 * the dialogs it opens. Every dialog is answered and recorded (up to DIALOG_CAP): alert and confirm dismissed,
 * prompt accepted with PROMPT_ANSWER, beforeunload dismissed (the page stays).
 */
export class PageConsole {
  readonly console: ConsoleEntry[] = [];
  readonly dialogs: DialogEntry[] = [];

  constructor(private readonly page: Page) {
    page.on("dialog", (d) => {
      const type = d.type() as DialogEntry["type"];
      const answer = type === "prompt" ? PROMPT_ANSWER : null;
      if (this.dialogs.length < DIALOG_CAP) this.dialogs.push({ type, message: d.message(), answer });
      void (answer === null ? d.dismiss() : d.accept(answer)).catch(() => {});
    });
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      // Chromium's own refusal of a beforeunload prompt (no user gesture yet) is a dialog the page asked for, not an error of the page's.
      if (BLOCKED_BEFOREUNLOAD.test(m.text())) {
        if (this.dialogs.length < DIALOG_CAP)
          this.dialogs.push({
            type: "beforeunload",
            message: "(not shown: Chromium blocks it before any user gesture)",
            answer: null,
          });
        return;
      }
      this.console.push({
        kind: "console.error",
        text: m.text(),
        ...(m.location().url ? { url: m.location().url } : {}),
      });
    });
    page.on("pageerror", (e) => this.uncaught(`${e.name}: ${e.message}`));
  }

  /** Caps the dialogs in every frame, before the page's scripts run. */
  capDialogs(): Promise<unknown> {
    return this.page.addInitScript(capDialogs, { cap: DIALOG_CAP, promptAnswer: PROMPT_ANSWER });
  }

  /** An error the page did not catch (or one Assay stopped, such as an endless loop). */
  uncaught(text: string): void {
    this.console.push({ kind: "uncaught", text });
  }
}

/**
 * Runs in every frame before the page's scripts: past the cap, alert, confirm and prompt answer at once
 * (undefined, false, PROMPT_ANSWER) without opening a dialog. Self-contained: Playwright serialises it.
 */
function capDialogs({ cap, promptAnswer }: { cap: number; promptAnswer: string }): void {
  let opened = 0;
  const answers: Record<string, unknown> = { alert: undefined, confirm: false, prompt: promptAnswer };
  for (const name of Object.keys(answers)) {
    const native = (window as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    Object.defineProperty(window, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        opened++;
        return opened <= cap ? native.apply(this, args) : answers[name];
      },
    });
  }
}
