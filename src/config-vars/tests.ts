import type { VarSpec } from "./declaration";

/** The section "For tests only" (CONFIG_SECTIONS.tests), in the order docs/configuration.md lists it. */
export const TESTS_VARS = {
  ASSAY_ALLOW_PRIVATE_TARGETS: {
    section: "tests",
    kind: "flag",
    doc: "`1` lets url jobs, subresources and webhook endpoints reach loopback (only loopback, never private networks).",
  },
  ASSAY_CLOCK_OFFSET_DAYS: {
    section: "tests",
    kind: "integer",
    default: 0,
    doc: "Days added to the clock the monthly grant reads its period from, so a test can be in a later month.",
  },
  ASSAY_DNS_FIXTURES: {
    section: "tests",
    kind: "path",
    doc: "A JSON file of DNS records (format in `src/capture/email/dns-resolver.ts`) answered instead of real DNS, with real DNS's answer shapes and error codes, so authentication tests run offline; the network guard reads its A and AAAA records too.",
  },
  ASSAY_CRASH_AT: {
    section: "tests",
    kind: "text",
    doc: "A named point of a job's life (`job-accepted`, `checks-done`, `email-received`; listed and described in `src/faults.ts`) at which the server kills itself with SIGKILL, for the crash tests (`test/service/crash-recovery.test.ts`); a name that is no point stops the start.",
  },
} as const satisfies Record<string, VarSpec & { section: "tests" }>;
