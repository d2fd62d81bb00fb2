import { describe, expect, test } from "bun:test";
import { WEB_GATHERERS } from "../../src/capture/gatherers";
import { gathererFor, type AnyGatherer } from "../../src/capture/gatherers/gatherer";
import { gathererTable, runGatherers, scheduleGatherers } from "../../src/capture/gatherers/run";
import { helpersScript } from "../../src/capture/page-helpers";

/**
 * The gatherers' table and its runner (src/capture/gatherers/): which gatherers run for a set of needs, in which
 * order, at which stage of the page's life, and what a failing one costs. The browser-driven behaviour (every
 * artifact kind on real pages) is in web-checks.test.ts and hostile-pages.test.ts; here the runner runs over a
 * page of its own that only counts.
 */

/** A page that records what was read on it, in order. */
type Log = { read: string[] };
const define = gathererFor<Log, Log>();
const once = (kind: string, dependsOn: readonly AnyGatherer<Log, Log>[] = []) =>
  define({ kind, sizes: "once", dependsOn, gather: async (page) => (page.read.push(kind), { [kind]: kind }) });
const each = (kind: string, dependsOn: readonly AnyGatherer<Log, Log>[] = []) =>
  define({
    kind,
    sizes: "each",
    dependsOn,
    gather: async (page, size) => (page.read.push(`${kind}@${size}`), { [kind]: size }),
  });
const kinds = (list: Array<{ kind: string }>) => list.map((g) => g.kind);

describe("the web table", () => {
  test("a kind the checks need is gathered with what it depends on, those before it, in the table's order where nothing else decides", () => {
    const s = scheduleGatherers(WEB_GATHERERS, ["screenshot", "dom", "axe", "vitals", "images"]);
    expect(kinds(s.atLoad)).toEqual(["vitals", "axe"]);
    expect(kinds(s.atEachSize)).toEqual(["dom", "images", "screenshot"]);
    // The images' sources are decoded once every size is read.
    expect(kinds(s.afterSizes)).toEqual(["images"]);
  });

  test("kinds no gatherer reads (the page's records, email kinds) schedule nothing", () => {
    expect(scheduleGatherers(WEB_GATHERERS, ["network", "console", "render"]).all).toEqual([]);
  });
});

describe("a table", () => {
  test("orders by dependency, not by listing: a dependency listed later is gathered first, and gathered when only its dependant is needed", () => {
    const base = once("base");
    const top = once("top", [base]);
    const s = scheduleGatherers(gathererTable([top, base]), ["top"]);
    expect(kinds(s.all)).toEqual(["base", "top"]);
  });

  test("a once gatherer that reads a kind gathered at each size runs after the sizes", () => {
    const shot = each("shot");
    const colours = once("colours", [shot]);
    const first = once("first");
    const s = scheduleGatherers(gathererTable([colours, shot, first]), ["colours", "first"]);
    expect([kinds(s.atLoad), kinds(s.atEachSize), kinds(s.afterSizes)]).toEqual([["first"], ["shot"], ["colours"]]);
  });

  test("is refused when it is built with a dependency circle, a dependency not in it, two gatherers of one kind, or a size-by-size gatherer that reads an after-the-sizes one", () => {
    const a = once("a");
    const b = once("b", [a]);
    (a as { dependsOn: unknown }).dependsOn = [b];
    expect(() => gathererTable([a, b])).toThrow("depend on one another in a circle");
    expect(() => gathererTable([once("c", [once("d")])])).toThrow("c depends on d, which is not in its table");
    expect(() => gathererTable([once("e"), once("e")])).toThrow("Two gatherers of the kind e");
    const perSize = each("per-size");
    const after = once("after", [perSize]);
    expect(() => gathererTable([perSize, after, each("late", [after])])).toThrow(
      "late is gathered at each size but reads after, gathered after the sizes",
    );
  });
});

describe("the runner", () => {
  const shot = each("shot");
  const colours = once("colours", [shot]);
  const broken = define({
    kind: "broken",
    sizes: "once",
    dependsOn: [],
    gather: async () => Promise.reject(new Error("the page broke it\nstack")),
  });
  const table = gathererTable([broken, shot, colours]);
  const sizes = ["desktop-md", "mobile-sm"] as const;

  test("runs at load, then at each size after the resize, then after the sizes; a failure is recorded for its kind alone", async () => {
    const page: Log = { read: [] };
    const { artifacts, failures } = await runGatherers(scheduleGatherers(table, ["broken", "colours"]), page, {
      sizes,
      resize: async (size) => void page.read.push(`resize ${size}`),
      phase: "gather",
      onFailure: "record",
    });
    expect(page.read).toEqual([
      "resize desktop-md",
      "shot@desktop-md",
      "resize mobile-sm",
      "shot@mobile-sm",
      "colours",
    ]);
    expect(artifacts as unknown).toEqual({
      shot: { "desktop-md": "desktop-md", "mobile-sm": "mobile-sm" },
      colours: "colours",
    });
    expect(failures).toEqual({ broken: "the page broke it" });
  });

  test("a gatherer gathered only at the sizes read skips the sizes the page visits for other kinds", async () => {
    const page: Log = { read: [] };
    const costly = define({
      kind: "costly",
      sizes: "each",
      onlyAtSizesRead: true,
      dependsOn: [],
      gather: async (page, size) => (page.read.push(`costly@${size}`), { costly: size }),
    });
    const { artifacts } = await runGatherers(
      scheduleGatherers(gathererTable([shot, costly]), ["shot", "costly"]),
      page,
      {
        sizes,
        resize: async (size) => void page.read.push(`resize ${size}`),
        sizesRead: (kind) => (kind === "costly" ? ["desktop-md"] : ["desktop-md", "mobile-sm"]),
        phase: "gather",
        onFailure: "record",
      },
    );
    expect(page.read).toEqual([
      "resize desktop-md",
      "shot@desktop-md",
      "costly@desktop-md",
      "resize mobile-sm",
      "shot@mobile-sm",
    ]);
    expect((artifacts as { costly: unknown }).costly).toEqual({ "desktop-md": "desktop-md" });
  });

  test("with onFailure throw, or when the failure is the page's end, the first failure ends the gathering", async () => {
    const options = { sizes, resize: async () => {}, phase: "render" };
    await expect(
      runGatherers(scheduleGatherers(table, ["broken", "shot"]), { read: [] }, { ...options, onFailure: "throw" }),
    ).rejects.toThrow("the page broke it");
    await expect(
      runGatherers(
        scheduleGatherers(table, ["broken", "shot"]),
        { read: [] },
        { ...options, onFailure: "record", fatal: () => true },
      ),
    ).rejects.toThrow("the page broke it");
  });
});

describe("a gatherer in the background", () => {
  /** Begins by noting it on the page, then finishes once `release` is called (after whatever the sizes did). */
  const backgrounded = (kind: string) => {
    let release = () => {};
    const finished = new Promise<void>((r) => (release = r));
    const g = define({
      kind,
      sizes: "background",
      dependsOn: [],
      begin: async (page) => {
        page.read.push(`${kind} begun`);
        return { rest: finished.then(() => (page.read.push(`${kind} finished`), { [kind]: kind })) };
      },
    });
    return { g, release: () => release() };
  };

  test("is begun before anything at load, finishes while the sizes are visited, and is there for those after the sizes", async () => {
    const ocr = backgrounded("ocr");
    const shot = each("shot");
    const reads = once("reads", [ocr.g]);
    const table = gathererTable([once("first"), shot, ocr.g, reads]);
    const s = scheduleGatherers(table, ["first", "shot", "reads"]);
    expect([kinds(s.inBackground), kinds(s.atLoad), kinds(s.afterSizes)]).toEqual([["ocr"], ["first"], ["reads"]]);
    const page: Log = { read: [] };
    const { artifacts } = await runGatherers(s, page, {
      sizes: ["desktop-md", "mobile-sm"],
      resize: async (size) => {
        page.read.push(`resize ${size}`);
        if (size === "mobile-sm") ocr.release();
      },
      phase: "gather",
      onFailure: "record",
    });
    expect(page.read).toEqual([
      "ocr begun",
      "first",
      "resize desktop-md",
      "shot@desktop-md",
      "resize mobile-sm",
      "ocr finished",
      "shot@mobile-sm",
      "reads",
    ]);
    expect((artifacts as Record<string, unknown>).ocr).toBe("ocr");
  });

  test("that fails is recorded for its kind alone; one that reads, or is read before the sizes end, is refused", async () => {
    const broken = define({
      kind: "broken",
      sizes: "background",
      dependsOn: [],
      begin: async () => ({ rest: Promise.reject(new Error("Tesseract failed\nstack")) }),
    });
    const { failures } = await runGatherers(
      scheduleGatherers(gathererTable([broken]), ["broken"]),
      { read: [] },
      {
        sizes: ["desktop-md"],
        resize: async () => {},
        phase: "gather",
        onFailure: "record",
      },
    );
    expect(failures).toEqual({ broken: "Tesseract failed" });
    const ocr = backgrounded("ocr").g;
    expect(() => gathererTable([ocr, define({ ...ocr, kind: "late", dependsOn: [ocr] })])).toThrow(
      "late is begun in the background before anything else is gathered, so it can read nothing",
    );
    expect(() => gathererTable([ocr, each("per-size", [ocr])])).toThrow(
      "per-size is gathered at each size but reads ocr, gathered after the sizes",
    );
  });
});

describe("page helpers", () => {
  function twice(n: number): number {
    return n * 2;
  }
  function quadruple(n: number): number {
    return twice(twice(n));
  }

  test("are installed together, call one another by name, and are installed once", () => {
    const script = helpersScript([{ twice }, { quadruple, twice }]);
    const registry = Symbol.for("assay.page-helpers");
    const scope = globalThis as unknown as Record<symbol, Record<string, (n: number) => number> | undefined>;
    delete scope[registry];
    try {
      (0, eval)(script);
      const installed = scope[registry]!;
      expect(installed.quadruple!(3)).toBe(12);
      (0, eval)(script);
      expect(scope[registry]).toBe(installed);
    } finally {
      delete scope[registry];
    }
  });

  test("that give one name to different functions are refused, installed together or one after the other", () => {
    expect(() => helpersScript([{ twice }, { twice: quadruple }])).toThrow("Two page helpers are named twice");
    const registry = Symbol.for("assay.page-helpers");
    const scope = globalThis as unknown as Record<symbol, unknown>;
    delete scope[registry];
    try {
      (0, eval)(helpersScript([{ twice }]));
      expect(() => (0, eval)(helpersScript([{ twice: quadruple, quadruple }]))).toThrow(
        "Two page helpers are named twice",
      );
    } finally {
      delete scope[registry];
    }
  });
});
