import type { LabVitals } from "./artifacts";

/** What the page's performance entries say at one moment; the engine decides when they are final. */
export type VitalsReading = Omit<LabVitals, "final" | "waitedMs" | "capMs">;

/** Runs in the page: reads buffered paint, LCP and layout-shift entries (CLS as the largest session window). */
export function readLabVitals(): Promise<VitalsReading> {
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
      resolve({ lcpMs: lcp, cls: Math.round(cls * 1000) / 1000, fcpMs: fcp, loadMs: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null });
    }, 0);
  });
}
