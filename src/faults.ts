/**
 * Failpoints for the crash tests (test/service/crash-recovery.test.ts): named points of a job's life at which the
 * process kills itself with SIGKILL when ASSAY_CRASH_AT names that point. The setting is for tests only; unset,
 * crashPoint does nothing. The points a test can reach from outside (a page that never finishes loading, an SMTP
 * client that stops halfway through DATA) have none: the test kills the server itself.
 */
export const CRASH_POINTS = {
  "job-accepted": "a job was accepted and charged (JobAccepted appended); its run has not started",
  "checks-done": "a job's checks ran; its settlement is not appended",
  "email-received":
    "an email job's message was stored, its arrival appended and 250 answered; checking has not started",
  "run-page-settled":
    "a page of a run settled; the run's other pages were accepted and charged with it, some running, some not started",
} as const;

export type CrashPoint = keyof typeof CRASH_POINTS;

/** Read once, when the process loads this module; a name that is no point stops the start rather than never firing. */
const armed = armedPoint(process.env.ASSAY_CRASH_AT);

function armedPoint(setting: string | undefined): CrashPoint | null {
  if (!setting) return null;
  if (!(setting in CRASH_POINTS))
    throw new Error(
      `ASSAY_CRASH_AT=${setting} names no crash point; the points are ${Object.keys(CRASH_POINTS).join(", ")}`,
    );
  return setting as CrashPoint;
}

/** Kills this process at once (SIGKILL: no handler, no flush, no clean-up) when ASSAY_CRASH_AT names this point. */
export function crashPoint(name: CrashPoint): void {
  if (armed === name) process.kill(process.pid, "SIGKILL");
}
