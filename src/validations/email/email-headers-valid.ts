import { pass, type EmailValidation, type Finding } from "../types";
import { headerValues } from "../../capture/email/email-artifacts";
import { mimeCheck } from "./_helpers";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** RFC 5322 §3.3 date-time, with the obsolete zones (UT, GMT, EST…) and a trailing comment allowed. */
const DATE_TIME =
  /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s*,\s*)?(\d{1,2})\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([+-]\d{4}|UT|GMT|[ECMP][SD]T)(?:\s*\([^()]*\))?$/;

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOT_ATOM = `${ATEXT}+(?:\\.${ATEXT}+)*`;
/** RFC 5322 §3.6.4 msg-id: "<" id-left "@" id-right ">" (id-right a dot-atom or a [literal]). */
const MSG_ID = new RegExp(`^<${DOT_ATOM}@(?:${DOT_ATOM}|\\[[^\\[\\]\\\\\\s]*\\])>$`);

/** Why a Date value is not an RFC 5322 date-time, or null with the instant when it is. */
function dateProblem(value: string): string | null {
  const v = value.replace(/\s+/g, " ").trim();
  const m = DATE_TIME.exec(v);
  if (!m) return `${JSON.stringify(v)} is not an RFC 5322 date-time (e.g. "Tue, 04 Mar 2025 07:42:00 +0000")`;
  const [, day, dd, mon, yyyy, hh, mi, ss, zone] = m;
  const year = Number(yyyy);
  const month = MONTHS.indexOf(mon!);
  const date = Number(dd);
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  if (year < 1900) return `the year ${year} is before 1900`;
  if (date < 1 || date > daysInMonth) return `${mon} ${year} has no day ${date}`;
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss ?? 0) > 60)
    return `${hh}:${mi}${ss ? `:${ss}` : ""} is not a time of day`;
  if (/^[+-]\d{4}$/.test(zone!) && Number(zone!.slice(3)) > 59) return `the zone ${zone} has more than 59 minutes`;
  if (day) {
    // The day name is that of the local date written, whatever the zone.
    const actual = DAYS[new Date(Date.UTC(year, month, date)).getUTCDay()]!;
    if (actual !== day) return `${date} ${mon} ${year} is a ${actual}, not a ${day}`;
  }
  return null;
}

export const emailHeadersValid: EmailValidation = {
  meta: mimeCheck({
    id: "email-headers-valid",
    name: "Required headers well-formed",
    category: "deliverability",
    severity: "major",
    summary:
      "Date, Message-ID and MIME-Version are present once each and well-formed; spam filters penalise messages without them.",
    judgment:
      "Fails when Date, Message-ID or MIME-Version is missing or appears more than once; when Date is not an RFC 5322 date-time (day name, if given, matching the date; real day, time and zone); when Message-ID is not a single <id-left@id-right> (dot-atoms, or a [literal] on the right); or when MIME-Version is not 1.0 (comments allowed).",
    references: [
      { title: "RFC 5322 §3.3 Date and Time Specification", url: "https://www.rfc-editor.org/rfc/rfc5322#section-3.3" },
      { title: "RFC 5322 §3.6.4 Identification Fields", url: "https://www.rfc-editor.org/rfc/rfc5322#section-3.6.4" },
      { title: "RFC 2045 §4 MIME-Version Header Field", url: "https://www.rfc-editor.org/rfc/rfc2045#section-4" },
      { title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" },
    ],
  }),
  evaluate(email) {
    const findings: Finding[] = [];
    const fixes: string[] = [];
    const once = (name: string, label: string, example: string): string | null => {
      const values = headerValues(email, name);
      if (values.length === 0) {
        findings.push({ message: `No ${label} header` });
        fixes.push(`add a ${label} header (${example})`);
        return null;
      }
      if (values.length > 1) {
        findings.push({ message: `${label} appears ${values.length} times`, text: values.join(" | ") });
        fixes.push(`send ${label} once`);
      }
      return values[0]!;
    };
    const date = once("date", "Date", 'e.g. "Date: Tue, 04 Mar 2025 07:42:00 +0000", set by the sending server');
    if (date !== null) {
      const problem = dateProblem(date);
      if (problem) {
        findings.push({ message: `Date: ${problem}`, text: date });
        fixes.push(`write Date as an RFC 5322 date-time (${problem})`);
      }
    }
    const messageId = once("message-id", "Message-ID", 'e.g. "Message-ID: <unique-id@mail.brand.com>"');
    if (messageId !== null && !MSG_ID.test(messageId.replace(/\([^()]*\)/g, "").trim())) {
      findings.push({
        message: `Message-ID ${JSON.stringify(messageId.trim())} is not <id-left@id-right>`,
        text: messageId,
      });
      fixes.push(`make Message-ID a single <unique-id@sending-domain> (it is ${JSON.stringify(messageId.trim())})`);
    }
    const mime = once("mime-version", "MIME-Version", '"MIME-Version: 1.0"');
    if (mime !== null && mime.replace(/\([^()]*\)/g, "").replace(/\s+/g, "") !== "1.0") {
      findings.push({ message: `MIME-Version is ${JSON.stringify(mime.trim())}, not 1.0`, text: mime });
      fixes.push('set "MIME-Version: 1.0"');
    }
    if (findings.length === 0)
      return pass(
        `Date ${JSON.stringify(date!.trim())}, Message-ID ${messageId!.trim()} and MIME-Version ${mime!.trim()} are present once each and well-formed.`,
      );
    return {
      verdict: "fail",
      reason: `Fix the top-level headers (usually set by the sending platform): ${fixes.join("; ")}`,
      reasoning: `${findings.length} problem(s) in Date, Message-ID and MIME-Version: ${findings.map((f) => f.message).join("; ")}.`,
      findings,
    };
  },
};
