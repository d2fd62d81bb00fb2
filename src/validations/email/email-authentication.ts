import type { Finding, EmailValidation, Outcome } from "../types";
import type { DkimOutcome, EmailAuthentication, SpfOutcome } from "../../capture/email/authentication";
import { mimeCheck } from "./_helpers";

/** A result that means DNS did not answer: no verdict on the message can be drawn from it. */
const DNS_FAILED = "temperror";

export const emailAuthentication: EmailValidation = {
  meta: mimeCheck({
    id: "email-authentication",
    name: "SPF, DKIM and DMARC",
    category: "deliverability",
    severity: "critical",
    summary:
      "The message passes SPF, DKIM and DMARC, each aligned with the From domain, as the receiving inbox saw it.",
    judgment:
      "Evaluated by mailauth on the message as it arrived, with the sending server's IP address, HELO name and MAIL FROM as the inbox recorded them. " +
      "Passes when SPF passes for the MAIL FROM domain and that domain is aligned with the From domain, at least one DKIM signature verifies " +
      "and its d= domain is aligned with the From domain, and DMARC passes for the From domain. Alignment is relaxed (same organizational " +
      "domain) unless the DMARC record asks for strict (aspf=s, adkim=s: the same domain). Fails when any of the three does not, with one " +
      "finding per mechanism that gives its result and what to fix. A DNS lookup that could not be answered (timeout, server failure) is " +
      "an error, not a fail. Mail relayed through a test tool from a machine the SPF record does not list fails SPF: send from the real " +
      "sending platform.",
    needs: ["authentication"],
    references: [
      { title: "RFC 7208 Sender Policy Framework (SPF)", url: "https://www.rfc-editor.org/rfc/rfc7208" },
      { title: "RFC 6376 DomainKeys Identified Mail (DKIM) Signatures", url: "https://www.rfc-editor.org/rfc/rfc6376" },
      {
        title: "RFC 7489 Domain-based Message Authentication, Reporting, and Conformance (DMARC)",
        url: "https://www.rfc-editor.org/rfc/rfc7489",
      },
      { title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" },
    ],
  }),
  evaluate(email) {
    const auth = email.authentication;
    if (!auth) return errorOutcome("The authentication results were not computed for this message.");
    if ("error" in auth) return errorOutcome(auth.error);
    return judge(auth);
  },
};

function errorOutcome(cause: string, findings: Finding[] = []): Outcome {
  return { verdict: "error", reason: cause, reasoning: cause, findings };
}

function judge(auth: EmailAuthentication): Outcome {
  const from = auth.fromDomain;
  const findings: Finding[] = [];
  /** What to fix, one entry per mechanism that is not right. */
  const fixes: string[] = [];
  const dnsFailures: string[] = [];

  // SPF
  const spf = auth.spf;
  if (!spf) {
    findings.push({
      message: "SPF: not evaluated",
      text: auth.spfSkipped,
      measured: { mechanism: "spf", result: null },
    });
    dnsFailures.push(auth.spfSkipped ?? "SPF could not be evaluated");
  } else {
    const fix = spfFix(spf, from);
    if (spf.result === DNS_FAILED)
      dnsFailures.push(`SPF lookup for ${spf.domain} failed (${spf.comment ?? "DNS error"})`);
    else if (fix) fixes.push(fix);
    findings.push({
      message: `SPF: ${spf.result} for ${spf.domain} from ${spf.clientIp}${spf.result === "pass" ? (spf.aligned ? ", aligned" : ", not aligned") : ""}`,
      ...(spf.comment ? { text: spf.comment } : {}),
      measured: {
        mechanism: "spf",
        result: spf.result,
        domain: spf.domain,
        mailFrom: spf.mailFrom,
        clientIp: spf.clientIp,
        helo: spf.helo,
        aligned: spf.aligned,
        record: spf.record,
        ...(fix && spf.result !== DNS_FAILED ? { fix } : {}),
      },
    });
  }

  // DKIM
  const passing = auth.dkim.filter((d) => d.result === "pass");
  const dkimOk = passing.some((d) => d.aligned);
  const dkimFix = dkimOk ? null : dkimFixFor(auth.dkim, from);
  if (auth.dkim.length === 0) {
    findings.push({
      message: "DKIM: none (the message is not signed)",
      measured: { mechanism: "dkim", result: "none", ...(dkimFix ? { fix: dkimFix } : {}) },
    });
  }
  for (const d of auth.dkim) {
    // A key that could not be fetched matters only when no other signature already passes aligned.
    if (d.result === DNS_FAILED && !dkimOk)
      dnsFailures.push(
        `DKIM key lookup at ${d.selector}._domainkey.${d.signingDomain} failed (${d.comment ?? "DNS error"})`,
      );
    findings.push({
      message: `DKIM: ${d.result} for d=${d.signingDomain}${d.selector ? ` s=${d.selector}` : ""}${d.result === "pass" ? (d.aligned ? ", aligned" : ", not aligned") : ""}`,
      ...(d.comment ? { text: d.comment } : {}),
      measured: {
        mechanism: "dkim",
        result: d.result,
        signingDomain: d.signingDomain,
        selector: d.selector,
        algorithm: d.algorithm,
        aligned: d.aligned,
        ...(dkimFix && !dkimOk ? { fix: dkimFix } : {}),
      },
    });
  }
  if (dkimFix && !auth.dkim.some((d) => d.result === DNS_FAILED)) fixes.push(dkimFix);

  // DMARC
  const dmarc = auth.dmarc;
  let dmarcFix: string | null = null;
  if (!dmarc) {
    dmarcFix = "Give the message exactly one From address: DMARC is evaluated for the From domain";
    findings.push({
      message: "DMARC: not evaluated (no single From address)",
      measured: { mechanism: "dmarc", result: null, fix: dmarcFix },
    });
  } else {
    if (dmarc.result === DNS_FAILED)
      dnsFailures.push(`DMARC lookup for ${from ?? dmarc.domain} failed (${dmarc.error ?? "DNS error"})`);
    else if (dmarc.result === "none")
      dmarcFix = `Publish a DMARC record at _dmarc.${from ?? dmarc.domain} (a TXT record such as "v=DMARC1; p=none; rua=mailto:dmarc-reports@${dmarc.domain}")`;
    else if (dmarc.result !== "pass")
      dmarcFix = `DMARC ${dmarc.result} for ${from ?? dmarc.domain}${dmarc.policy ? ` (policy p=${dmarc.policy})` : ""}: make SPF or DKIM pass aligned with the From domain, as above`;
    findings.push({
      message: `DMARC: ${dmarc.result} for ${from ?? dmarc.domain}${dmarc.policy ? ` (p=${dmarc.policy})` : ""}`,
      ...(dmarc.record ? { text: dmarc.record } : dmarc.error ? { text: dmarc.error } : {}),
      measured: {
        mechanism: "dmarc",
        result: dmarc.result,
        domain: dmarc.domain,
        policy: dmarc.policy,
        record: dmarc.record,
        strictAlignment: dmarc.strict,
        ...(dmarcFix ? { fix: dmarcFix } : {}),
      },
    });
  }
  if (dmarcFix) fixes.push(dmarcFix);

  const summary = findings.map((f) => f.message).join("; ");
  if (dnsFailures.length) {
    return errorOutcome(
      `DNS could not answer, so authentication was not judged: ${dnsFailures.join("; ")}. Retry the job.`,
      findings,
    );
  }
  if (fixes.length === 0)
    return {
      verdict: "pass",
      reasoning: `${summary}. All three pass, aligned with the From domain ${from}.`,
      findings,
    };
  return { verdict: "fail", reason: fixes.join(". "), reasoning: `${summary}.`, findings };
}

function spfFix(spf: SpfOutcome, from: string | null): string | null {
  const record = spf.record ? ` (record: "${spf.record}")` : "";
  switch (spf.result) {
    case "pass":
      return spf.aligned || !from
        ? null
        : `SPF passed for ${spf.domain}, which is not aligned with the From domain ${from}: send with a MAIL FROM (Return-Path) address at ${from} or a subdomain of it`;
    case "none":
      return `Publish an SPF record for ${spf.domain} (a TXT record "v=spf1 … -all") that lists the sending server ${spf.clientIp}`;
    case "fail":
    case "softfail":
    case "neutral":
      return `Add the sending server ${spf.clientIp} to the SPF record of ${spf.domain}, or send through a server it lists; it is not permitted now${record}`;
    case "permerror":
      return `Fix the SPF record of ${spf.domain}: ${spf.comment ?? "it cannot be evaluated"}${record}`;
    default:
      return `SPF ${spf.result} for ${spf.domain}${spf.comment ? `: ${spf.comment}` : ""}`;
  }
}

function dkimFixFor(sigs: DkimOutcome[], from: string | null): string {
  const at = from ?? "the From domain";
  if (sigs.length === 0) return `Sign the message with DKIM with a key published under ${at} (d=${at})`;
  const passedUnaligned = sigs.find((d) => d.result === "pass" && !d.aligned);
  if (passedUnaligned) {
    return `The valid DKIM signature is by ${passedUnaligned.signingDomain}, which is not aligned with the From domain ${at}: also sign with d=${at} (or a domain of the same organization)`;
  }
  const d = sigs[0]!;
  const where = `d=${d.signingDomain}${d.selector ? ` s=${d.selector}` : ""}`;
  const comment = d.comment ?? "";
  if (/body hash/i.test(comment)) {
    return `The DKIM signature (${where}) does not match the body: the message was changed after it was signed (a footer added, links rewritten, re-encoded); sign it last, after every change`;
  }
  if (/no key/i.test(comment))
    return `Publish the DKIM public key for ${where} at ${d.selector}._domainkey.${d.signingDomain}`;
  if (/bad signature/i.test(comment)) {
    return `The DKIM signature (${where}) does not verify: signed headers were changed after signing, or the published key is not the signing key`;
  }
  if (/expired/i.test(comment))
    return `The DKIM signature (${where}) has expired: sign at send time with a later x= expiry`;
  return `Fix the DKIM signature (${where}): ${d.result}${comment ? `, ${comment}` : ""}`;
}
