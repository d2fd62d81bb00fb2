/** Decisions and severities as badges: the word carries the meaning; the colour only repeats it. */

const DECISION_WORDS: Record<string, string> = {
  pass: "Pass",
  blocked: "Blocked",
  undecided: "Undecided",
  pending: "Running",
};

export const DecisionBadge = (props: { decision: string }) => (
  <span class={`badge badge-${props.decision}`}>{DECISION_WORDS[props.decision] ?? props.decision}</span>
);

/** A check's severity (critical, major, minor, ... or the policy's required, recommended, optional, prohibited). */
export const SeverityBadge = (props: { severity: string }) => (
  <span class={`badge severity severity-${props.severity}`} safe>
    {props.severity}
  </span>
);
