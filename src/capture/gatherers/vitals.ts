import type { LabVitals } from "../artifact-shapes";
import { defineWebGatherer } from "./web-page";

/** What the page's performance entries say at one moment; the gatherer decides when they are final. */
type VitalsReading = Omit<LabVitals, "final" | "waitedMs" | "capMs">;

/**
 * "vitals": lab timings from the page's own performance entries (no throttling), read until they are final: the
 * network and the largest paint both quiet for vitalsQuietMs (a hero image behind a slow request paints late, and
 * LCP moves with it), or vitalsCapMs after load, when they are marked not final. No input is given, so nothing else
 * ends LCP early. First in the table: what runs before it in the page would be measured with it.
 */
export const vitalsGatherer = defineWebGatherer({
  kind: "vitals",
  sizes: "once",
  dependsOn: [],
  async gather({ world, network, loadedAt, limits }) {
    const { vitalsQuietMs: quiet, vitalsCapMs: cap } = limits;
    let reading: VitalsReading = await world.run(readLabVitals);
    let paintedAt = performance.now();
    for (;;) {
      const now = performance.now();
      const done = network.inFlight === 0 && now - network.lastActivity >= quiet && now - paintedAt >= quiet;
      if (done || now - loadedAt >= cap)
        return {
          vitals: { ...reading, final: done, waitedMs: Math.round(now - loadedAt), capMs: cap } satisfies LabVitals,
        };
      await Bun.sleep(100);
      const next = await world.run(readLabVitals);
      if (next.lcpMs !== reading.lcpMs) paintedAt = performance.now();
      reading = next;
    }
  },
});

/** Runs in the page: reads buffered paint, LCP and layout-shift entries (CLS as the largest session window). */
function readLabVitals(): Promise<VitalsReading> {
  return new Promise((resolve) => {
    let lcp: number | null = null;
    const shifts: Array<{ value: number; startTime: number }> = [];
    const observers: PerformanceObserver[] = [];
    const observe = (type: string, fn: (entries: PerformanceEntry[]) => void) => {
      try {
        const o = new PerformanceObserver((list) => fn(list.getEntries()));
        o.observe({ type, buffered: true });
        observers.push(o);
      } catch {}
    };
    observe("largest-contentful-paint", (entries) => {
      for (const e of entries) lcp = Math.max(lcp ?? 0, e.startTime);
    });
    observe("layout-shift", (entries) => {
      for (const e of entries as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!e.hadRecentInput) shifts.push({ value: e.value, startTime: e.startTime });
      }
    });
    // Buffered entries arrive in the next task; give them one.
    setTimeout(() => {
      for (const o of observers) o.disconnect();
      let cls = 0;
      let window = 0;
      let windowStart = 0;
      let last = -Infinity;
      for (const s of shifts.sort((a, b) => a.startTime - b.startTime)) {
        if (s.startTime - last > 1000 || s.startTime - windowStart > 5000) {
          window = 0;
          windowStart = s.startTime;
        }
        window += s.value;
        last = s.startTime;
        cls = Math.max(cls, window);
      }
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      resolve({
        lcpMs: lcp,
        cls: Math.round(cls * 1000) / 1000,
        fcpMs: fcp,
        loadMs: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null,
      });
    }, 0);
  });
}
