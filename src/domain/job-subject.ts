import { AppError } from "../errors/app-error";
import type { NetworkGuard } from "../capture/network-guard";
import type { JobType } from "./planned-job";

/** The job request's subject (./job-request.ts's subject steps): one of them, the type's own, and public URLs. */

const SUBJECT_FIELDS = ["url", "html"] as const;

/** Exactly one subject: one url, or one html, or the email job's message. */
export function checkOneSubject(b: Record<string, unknown>, type: JobType): void {
  const subjectCount =
    SUBJECT_FIELDS.reduce(
      (n, f) => n + (b[f] === undefined ? 0 : Array.isArray(b[f]) ? (b[f] as unknown[]).length : 1),
      0,
    ) + (type === "email" ? 1 : 0);
  if (subjectCount > 1) {
    throw new AppError(
      "JOB_ACCEPTS_ONE_SUBJECT",
      `A job takes exactly one subject; this body has ${subjectCount}. Send one job per subject.`,
      { subjectCount },
    );
  }
}

/** The type's subject is given: url for url; html and baseUrl for static_html. */
export function checkSubjectGiven(b: Record<string, unknown>, type: JobType): void {
  const required = type === "url" ? ["url"] : type === "static_html" ? ["html", "baseUrl"] : [];
  for (const field of required) {
    if (typeof b[field] !== "string" || (field !== "html" && !(b[field] as string).trim())) {
      throw new AppError("JOB_SUBJECT_REQUIRED", `A ${type} job needs ${field}.`, { field, jobType: type });
    }
  }
}

/** A url job's url and a static_html job's baseUrl are public http(s) URLs; a baseUrl's host may not exist. */
export async function checkSubjectUrls(b: Record<string, unknown>, type: JobType, guard: NetworkGuard): Promise<void> {
  if (type === "url") await checkPublicUrl(b.url as string, "url", guard, { mayNotExist: false });
  if (type === "static_html") await checkPublicUrl(b.baseUrl as string, "baseUrl", guard, { mayNotExist: true });
}

/** The network guard's verdict on a job's URL, DNS included; `mayNotExist` accepts a host name that does not resolve. */
async function checkPublicUrl(
  raw: string,
  field: string,
  guard: NetworkGuard,
  { mayNotExist }: { mayNotExist: boolean },
): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not an absolute URL.`, { field, reason: "invalid-url" });
  }
  const verdict = await guard.check(url);
  if (verdict.allowed || (mayNotExist && verdict.reason === "unresolvable")) return;
  if (verdict.reason === "dns-unavailable") {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `DNS could not resolve the ${field}'s host now, so the job was not started and nothing was charged. Retry shortly.`,
      {
        dependency: "dns",
        field,
      },
      verdict.detail,
      true,
    );
  }
  throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not a public http(s) URL: ${verdict.detail}.`, {
    field,
    reason: verdict.reason,
  });
}
