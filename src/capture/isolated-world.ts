import type { CDPSession, Page } from "playwright-core";

/**
 * Assay's in-page code (the gatherers, axe-core, the vitals reader) runs in a CDP isolated world of the page's
 * main frame, as Lighthouse runs its gatherers: the same DOM, but its own globals, so a page that redefines
 * `define`, `performance.now`, `URL`, `Array.prototype.map` or `Symbol` cannot break it.
 *
 * A function passed to run() is serialised (as Playwright's page.evaluate does), so it must be self-contained but
 * for the page helpers installed in the world (page-helpers.ts); its argument travels as JSON.
 */
export class IsolatedWorld {
  private contextId: number | null = null;

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  static async open(page: Page, cdp: CDPSession): Promise<IsolatedWorld> {
    const world = new IsolatedWorld(page, cdp);
    await world.create();
    return world;
  }

  /** Runs source text (a library such as axe-core) in the world. */
  async load(source: string): Promise<void> {
    await this.evaluate(source);
  }

  async run<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  async run<R>(fn: () => R | Promise<R>): Promise<R>;
  async run(fn: (arg?: unknown) => unknown, arg?: unknown): Promise<unknown> {
    return this.evaluate(`(${fn.toString()})(${arg === undefined ? "" : JSON.stringify(arg)})`);
  }

  private async create(): Promise<void> {
    const { frameTree } = await this.cdp.send("Page.getFrameTree");
    const { executionContextId } = await this.cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: "assay",
    });
    this.contextId = executionContextId;
  }

  private async evaluate(expression: string): Promise<unknown> {
    let answer: Awaited<ReturnType<IsolatedWorld["send"]>>;
    try {
      answer = await this.send(expression);
    } catch (e) {
      // The page navigated itself (a script redirect, document.open) and took the world with it: one more, in the new document.
      if (!/context/i.test((e as Error).message) || this.page.isClosed()) throw e;
      await this.create();
      answer = await this.send(expression);
    }
    if (answer.exceptionDetails) {
      const { exception, text } = answer.exceptionDetails;
      throw new Error(exception?.description?.split("\n")[0] ?? text);
    }
    return answer.result.value;
  }

  private send(expression: string) {
    return this.cdp.send("Runtime.evaluate", {
      expression,
      contextId: this.contextId!,
      awaitPromise: true,
      returnByValue: true,
    });
  }
}
