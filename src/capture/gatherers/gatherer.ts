import type { HelperGroup } from "../page-helpers";
import type { CaptureSize } from "../vocabulary";

/**
 * One artifact kind, declared once, as Lighthouse declares a gatherer: its name (what a check's `needs` names), the
 * sizes it runs at, the kinds it reads, the page helpers its page functions call, and how it is read (its page
 * function or its CDP call). `P` is what a page offers its gatherers (a webpage, a mail-client render), `S` what it
 * offers them before it loads. The runner (run.ts) gathers a table of them in dependency order.
 */
interface GathererBase<P, S, K extends string, D extends readonly AnyGatherer<P, S>[]> {
  readonly kind: K;
  /** Kinds this one reads: gathered before it (and whenever it is); their artifacts are in `gathered`. */
  readonly dependsOn: D;
  /** Page helpers its page functions call, installed once per page before anything is gathered. */
  readonly helpers?: readonly HelperGroup[];
  /** Before the page loads: what the page must record for this kind (Lighthouse's startInstrumentation). */
  prepare?(setup: S): void;
}

/** Read once per page: at the size the page loaded at, or after every size when it reads a kind gathered at each size. */
export interface OnceGatherer<P, S, K extends string, D extends readonly AnyGatherer<P, S>[], A extends object>
  extends GathererBase<P, S, K, D> {
  readonly sizes: "once";
  /** Its artifacts: fields of the page's artifacts. */
  gather(page: P, gathered: Gathered<D>): Promise<A>;
}

/**
 * Begun once at the size the page loaded at, and finished while the sizes are visited: work that reads the page at
 * load and then takes time of its own, away from the page (OCR: rasterizing pictures in a blank page, Tesseract).
 * Its artifacts are there for the gatherers after the sizes; nothing at load or at each size may read them.
 */
export interface BackgroundGatherer<P, S, K extends string, D extends readonly AnyGatherer<P, S>[], A extends object>
  extends GathererBase<P, S, K, D> {
  readonly sizes: "background";
  /** Reads what it needs of the page, then returns the rest of its work under way, which no longer touches the page. */
  begin(page: P, gathered: Gathered<D>): Promise<{ rest: Promise<A> }>;
}

/** Read at each capture size of the job, the page resized to it: each field of its reading is kept per size. */
export interface EachSizeGatherer<
  P,
  S,
  K extends string,
  D extends readonly AnyGatherer<P, S>[],
  A extends object,
  F extends object,
> extends GathererBase<P, S, K, D> {
  readonly sizes: "each";
  /**
   * Gathered only at the sizes the checks that read it are judged at (GatherOptions.sizesRead), not at every size
   * the page visits for other checks: for a reading that costs (axe and renders at each size).
   */
  readonly onlyAtSizesRead?: boolean;
  gather(page: P, size: CaptureSize, gathered: Gathered<D>): Promise<A>;
  /** After every size: what the readings at all sizes add up to (fields of the page's artifacts). */
  finish?(page: P, gathered: Gathered<D> & PerSize<A>): Promise<F>;
}

/** A gatherer of any kind, as tables and the runner hold them. */
export type AnyGatherer<P = any, S = any> =
  | OnceGatherer<P, S, string, any, any>
  | BackgroundGatherer<P, S, string, any, any>
  | EachSizeGatherer<P, S, string, any, any, any>;

/** The fields of a reading kept per size. */
export type PerSize<A> = { [F in keyof A]?: Partial<Record<CaptureSize, A[F]>> };

/** The artifacts a gatherer adds to its page's (each field may be missing: a gatherer that failed adds nothing). */
export type ArtifactsOf<G> =
  G extends OnceGatherer<any, any, string, any, infer A>
    ? Partial<A>
    : G extends BackgroundGatherer<any, any, string, any, infer A>
      ? Partial<A>
      : G extends EachSizeGatherer<any, any, string, any, infer A, infer F>
        ? PerSize<A> & Partial<F>
        : never;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** What gatherers (a union of them: a table's `[number]`) add up to. */
export type ArtifactsOfAll<G extends AnyGatherer> = Intersection<ArtifactsOf<G>>;

/** What a gatherer finds of its dependencies' artifacts. */
export type Gathered<D extends readonly AnyGatherer[]> = D extends readonly [] ? unknown : ArtifactsOfAll<D[number]>;

/** The declaration function for one kind of page's gatherers: `gathererFor<WebPage, WebSetup>()`. */
export function gathererFor<P, S = never>() {
  function define<const K extends string, const D extends readonly AnyGatherer<P, S>[], A extends object>(
    g: OnceGatherer<P, S, K, D, A>,
  ): OnceGatherer<P, S, K, D, A>;
  function define<const K extends string, const D extends readonly AnyGatherer<P, S>[], A extends object>(
    g: BackgroundGatherer<P, S, K, D, A>,
  ): BackgroundGatherer<P, S, K, D, A>;
  function define<
    const K extends string,
    const D extends readonly AnyGatherer<P, S>[],
    A extends object,
    F extends object = object,
  >(g: EachSizeGatherer<P, S, K, D, A, F>): EachSizeGatherer<P, S, K, D, A, F>;
  function define(g: AnyGatherer<P, S>): AnyGatherer<P, S> {
    return g;
  }
  return define;
}
