/**
 * A few instances of an engine driven over WebDriver (each its own processes, each rendering one page at a time),
 * started on first use and kept warm: at most `atOnce` render at a time, and up to `kept` instances stay between
 * renders, so instances set up in different ways (WebKit: a light and a dark session) all stay warm. A render takes
 * an idle instance already set up the way it wants (`prefers`), else starts one in a free slot, else waits its turn
 * in arrival order. An instance whose processes died is closed and its slot freed; a render it was running is run
 * once more on a fresh instance, so a crash costs that render a retry, never a hung job. Engine-neutral: WebKit uses
 * it (engine-captures.ts).
 */

export interface PooledEngine {
  /** False once any of the instance's processes has exited. */
  readonly alive: boolean;
  close(): Promise<void>;
}

interface Slot<E> {
  engine: Promise<E> | null;
  /** The instance once started. */
  ready: E | null;
  busy: boolean;
}

export class EnginePool<E extends PooledEngine> {
  private readonly slots: Slot<E>[];
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly startEngine: () => Promise<E>,
    /** Renders at once. */
    readonly atOnce: number,
    /** Instances kept between renders (at least atOnce). */
    kept = atOnce,
  ) {
    this.slots = Array.from({ length: Math.max(kept, atOnce) }, () => ({ engine: null, ready: null, busy: false }));
  }

  /**
   * Runs `render` on an instance of its own. When the instance died under it, the render runs once more on a new
   * one; any other failure is the render's.
   */
  async use<T>(render: (engine: E) => Promise<T>, prefers: (engine: E) => boolean = () => true): Promise<T> {
    try {
      return await this.once(render, prefers);
    } catch (e) {
      if (!(e instanceof EngineDied)) throw e;
      return await this.once(render, prefers).catch((again) => {
        throw again instanceof EngineDied ? again.cause : again;
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    const engines = this.slots.map((s) => s.engine);
    for (const s of this.slots) Object.assign(s, { engine: null, ready: null });
    await Promise.all(engines.map(async (e) => (await e?.catch(() => null))?.close()));
  }

  private async once<T>(render: (engine: E) => Promise<T>, prefers: (engine: E) => boolean): Promise<T> {
    const slot = await this.take(prefers);
    let engine: E | undefined;
    try {
      engine = await this.engineOf(slot);
      return await render(engine);
    } catch (e) {
      if (engine && !engine.alive) throw new EngineDied(e);
      throw e;
    } finally {
      if (engine && !engine.alive) this.discard(slot, engine);
      slot.busy = false;
      // Every waiter looks again, in arrival order: the slot freed may suit one further back.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /**
   * A slot for the render, once fewer than atOnce are busy: an idle one whose instance suits it; else one with
   * nothing started (nobody loses a warm instance); else, when a busy instance suits it, that one's turn (setting up
   * another instance costs more than a warm render); else any idle one.
   */
  private async take(prefers: (engine: E) => boolean): Promise<Slot<E>> {
    for (;;) {
      if (this.closed) throw new Error("the engine pool is closed");
      const suits = (s: Slot<E>) => s.ready?.alive === true && prefers(s.ready);
      const idle = this.slots.filter((s) => !s.busy);
      const slot =
        this.slots.length - idle.length >= this.atOnce
          ? undefined
          : (idle.find(suits) ??
            idle.find((s) => s.engine === null) ??
            (this.slots.some((s) => s.busy && suits(s)) ? undefined : idle[0]));
      if (slot) {
        slot.busy = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The slot's instance, started when it has none or its own died; a start that failed is tried again next time. */
  private async engineOf(slot: Slot<E>): Promise<E> {
    const current = await slot.engine?.catch(() => null);
    if (current?.alive) return current;
    if (current) this.discard(slot, current);
    const started = this.startEngine();
    slot.engine = started;
    started.then(
      (engine) => {
        if (slot.engine === started) slot.ready = engine;
      },
      () => {
        if (slot.engine === started) slot.engine = null;
      },
    );
    return started;
  }

  private discard(slot: Slot<E>, engine: E): void {
    slot.engine = null;
    slot.ready = null;
    void engine.close().catch(() => {});
  }
}

/** The instance a render ran on died under it (the render is then tried once more). */
class EngineDied extends Error {
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
  }
}
