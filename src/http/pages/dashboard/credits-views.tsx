import { Csrf, DashboardPage, type ShellProps } from "./shell";
import { ScrollRegion } from "../layout";

export interface LedgerRow {
  position: number;
  type: string;
  amount: number;
  jobId?: string;
  reason?: string;
  balanceAfter: number;
  recordedAt: string;
}

export interface CreditsProps {
  shell: ShellProps;
  balance: number;
  plan: string;
  planName: string;
  monthlyGrant: number;
  /** The plans of the catalog, for an admin's change-plan form. */
  plans: Array<{ code: string; name: string; paid: boolean; monthlyCredits: number | null }>;
  /** False under a billing provider, whose subscription is the plan: no form then, a line saying where to change it. */
  planChangeable: boolean;
  billingProvider: string;
  ledger: LedgerRow[];
  /** How many of the newest entries were asked for, and the choices the operation allows. */
  limit: number;
  limits: number[];
  done?: string;
  message?: string;
}

const when = (iso: string) => <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function CreditsView(props: CreditsProps) {
  return (
    <DashboardPage
      shell={props.shell}
      title="Credits"
      description="Your organization's credit balance, plan, monthly grant and ledger."
      done={props.done}
      message={props.message}
    >
      <dl>
        <dt>Balance</dt>
        <dd id="balance">{String(props.balance)} credits</dd>
        <dt>Plan</dt>
        <dd id="plan">
          <span safe>{props.planName}</span> (<code safe>{props.plan}</code>)
        </dd>
        <dt>Monthly grant</dt>
        <dd>{String(props.monthlyGrant)} credits</dd>
      </dl>
      {!props.planChangeable ? (
        <p id="plan-managed">
          The plan is the organization's subscription with <span safe>{props.billingProvider}</span>: change the
          subscription there.
        </p>
      ) : props.shell.role === "admin" ? (
        <form method="post" action="/dashboard/credits/plan">
          <Csrf token={props.shell.csrfToken} />
          <label for="plan-code">Change the plan</label>
          <select id="plan-code" name="planCode">
            {props.plans.map((p) => (
              <option value={p.code} selected={p.code === props.plan} safe>
                {`${p.name}${p.paid ? ", paid" : ""}${p.monthlyCredits === null ? "" : `, ${p.monthlyCredits} credits a month`}`}
              </option>
            ))}
          </select>
          <p>
            The new plan's monthly credits for this month are granted at once: an unpaid plan tops the balance up to its
            amount, a paid plan adds it.
          </p>
          <button type="submit">Change plan</button>
        </form>
      ) : (
        ""
      )}
      <h2>Ledger</h2>
      <form method="get" action="/dashboard/credits">
        <label class="inline" for="limit">
          Entries shown
        </label>
        <select id="limit" name="limit">
          {props.limits.map((n) => (
            <option value={String(n)} selected={n === props.limit}>
              {String(n)}
            </option>
          ))}
        </select>
        <button type="submit" class="small secondary">
          Show
        </button>
      </form>
      {props.ledger.length === 0 ? (
        <p>No ledger entries yet.</p>
      ) : (
        <ScrollRegion label="Ledger">
          <table class="cards-narrow">
            <caption>
              The {String(props.ledger.length)} newest entries, newest first; the position is the entry's event in the
              log.
            </caption>
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Type</th>
                <th scope="col">Amount</th>
                <th scope="col">Job</th>
                <th scope="col">Reason</th>
                <th scope="col">Balance after</th>
                <th scope="col">Recorded</th>
              </tr>
            </thead>
            <tbody>
              {props.ledger.map((e) => (
                <tr id={`position-${e.position}`}>
                  <td data-label="Position">{String(e.position)}</td>
                  <td data-label="Type">
                    <code safe>{e.type}</code>
                  </td>
                  <td data-label="Amount">{signed(e.amount)}</td>
                  <td data-label="Job">
                    {e.jobId ? (
                      <a href={`/dashboard/jobs/${encodeURIComponent(e.jobId)}`}>
                        <code safe>{e.jobId}</code>
                      </a>
                    ) : (
                      ""
                    )}
                  </td>
                  <td data-label="Reason" safe>
                    {e.reason ?? ""}
                  </td>
                  <td data-label="Balance after">{String(e.balanceAfter)}</td>
                  <td data-label="Recorded">{when(e.recordedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </DashboardPage>
  );
}
