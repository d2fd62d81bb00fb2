import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Flags this machine needs: no sandbox as root, and no background traffic to hosts it cannot reach. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export function findChromium(configured?: string): string | undefined {
  if (configured) return configured;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
      const p = `${dir}/${name}`;
      if (dir && existsSync(p)) return p;
    }
  }
  return undefined;
}

/** Warm Chromium browsers; each job takes the least busy one and opens its own context. */
export class BrowserPool {
  private browsers: Array<{ browser: Promise<Browser>; active: number }> = [];

  constructor(
    private readonly executablePath: string,
    private readonly size: number,
  ) {}

  /** Starts the browsers now so the first job does not pay for the launch. */
  warm(): Promise<void> {
    while (this.browsers.length < this.size) this.browsers.push({ browser: this.launch(), active: 0 });
    return Promise.all(this.browsers.map((b) => b.browser)).then(() => undefined);
  }

  async use<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
    if (this.browsers.length === 0) void this.warm();
    const slot = this.browsers.reduce((a, b) => (b.active < a.active ? b : a));
    slot.active++;
    try {
      let browser = await slot.browser;
      if (!browser.isConnected()) {
        slot.browser = this.launch();
        browser = await slot.browser;
      }
      return await fn(browser);
    } finally {
      slot.active--;
    }
  }

  async close(): Promise<void> {
    const all = this.browsers;
    this.browsers = [];
    await Promise.all(all.map(async (b) => (await b.browser.catch(() => null))?.close().catch(() => {})));
  }

  private launch(): Promise<Browser> {
    return chromium.launch({ executablePath: this.executablePath, headless: true, args: CHROMIUM_ARGS });
  }
}
