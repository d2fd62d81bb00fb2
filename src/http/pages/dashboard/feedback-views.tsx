import { Csrf, DashboardPage, type ShellProps } from "./shell";

/** A question's answer schema as the feedback operations serve it. */
export type Shape =
  | { kind: "verdict"; states: string[] }
  | { kind: "single_choice"; options: string[] }
  | { kind: "multi_choice"; options: string[]; min: number; max: number }
  | { kind: "rating"; min: number; max: number }
  | { kind: "text"; maxLength: number; required: boolean }
  | { kind: "boolean" };

/** The looks-wrong set as getFeedbackQuestions serves it for one result. */
export interface AskedSet {
  setId: string;
  title: string;
  jobId: string;
  validationId?: string;
  storedVerdict?: string;
  rewardCredits: number;
  questions: { id: string; text: string; shape: Shape }[];
}

/** What getFeedback answers about one result. */
export interface FiledFeedback {
  storedVerdict: string;
  humanVerdict: string;
  disputed: boolean;
  answers: { questionId: string; value: unknown }[];
  source: string;
  submittedAt: string;
  rewardCredits: number;
}

export interface FeedbackPageProps {
  shell: ShellProps;
  jobId: string;
  validationId: string;
  /** The set asked, while nothing is filed. */
  asked: AskedSet | null;
  filed: FiledFeedback | null;
  done?: string;
  message?: string;
}

function Choices(props: {
  name: string;
  id: string;
  type: "radio" | "checkbox";
  values: { value: string; label: string }[];
  required: boolean;
}) {
  return (
    <>
      {props.values.map((v, i) => (
        <label class="inline choice" for={`${props.id}-${i}`}>
          <input
            type={props.type}
            id={`${props.id}-${i}`}
            name={props.name}
            value={v.value}
            required={props.required}
          />{" "}
          <span safe>{v.label}</span>
        </label>
      ))}
    </>
  );
}

/**
 * One question as a control generated from its shape; the field names are what the submit operation reads from a
 * form (feedbackSubmissionFromForm, src/operations/feedback/submit-feedback.ts): `answer.<id>`, with `:number`, `:boolean` or `:list`.
 */
function Question(props: { question: AskedSet["questions"][number] }) {
  const { id, text, shape } = props.question;
  const field = `q-${id}`;
  const name = `answer.${id}`;
  switch (shape.kind) {
    case "verdict":
    case "single_choice": {
      const values = (shape.kind === "verdict" ? shape.states : shape.options).map((v) => ({ value: v, label: v }));
      return (
        <fieldset>
          <legend safe>{text}</legend>
          <Choices name={name} id={field} type="radio" values={values} required />
        </fieldset>
      );
    }
    case "multi_choice":
      return (
        <fieldset>
          <legend>
            <span safe>{text}</span> (pick {String(shape.min)} to {String(shape.max)})
          </legend>
          <input type="hidden" name={`${name}:list`} value="" />
          <Choices
            name={`${name}:list`}
            id={field}
            type="checkbox"
            values={shape.options.map((v) => ({ value: v, label: v }))}
            required={false}
          />
        </fieldset>
      );
    case "boolean":
      return (
        <fieldset>
          <legend safe>{text}</legend>
          <Choices
            name={`${name}:boolean`}
            id={field}
            type="radio"
            values={[
              { value: "true", label: "yes" },
              { value: "false", label: "no" },
            ]}
            required
          />
        </fieldset>
      );
    case "rating":
      return (
        <p>
          <label for={field}>
            <span safe>{text}</span> ({String(shape.min)} to {String(shape.max)})
          </label>
          <input
            type="number"
            id={field}
            name={`${name}:number`}
            min={String(shape.min)}
            max={String(shape.max)}
            step="1"
            required
          />
        </p>
      );
    case "text":
      return (
        <p>
          <label for={field} safe>
            {text}
          </label>
          <textarea
            id={field}
            name={name}
            maxlength={String(shape.maxLength)}
            rows="3"
            required={shape.required}
          ></textarea>
        </p>
      );
  }
}

function Filed(props: { filed: FiledFeedback }) {
  const f = props.filed;
  return (
    <>
      <h2>What you filed</h2>
      <p>
        The check said {f.storedVerdict}; you said {f.humanVerdict}
        {f.disputed ? " (disputed)" : ""}. Filed {f.submittedAt.slice(0, 16).replace("T", " ")} UTC from the {f.source},
        paid {String(f.rewardCredits)} credits.
      </p>
      <dl>
        {f.answers.map((a) => (
          <>
            <dt>
              <code safe>{a.questionId}</code>
            </dt>
            <dd safe>
              {a.value === null || a.value === ""
                ? "(no answer)"
                : typeof a.value === "string"
                  ? a.value
                  : JSON.stringify(a.value)}
            </dd>
          </>
        ))}
      </dl>
    </>
  );
}

/** "Looks wrong?" for one result: the looks-wrong set as a form, or what was filed once it was. */
export function FeedbackPageView(props: FeedbackPageProps) {
  const { asked, filed } = props;
  const back = `/dashboard/jobs/${encodeURIComponent(props.jobId)}`;
  return (
    <DashboardPage
      shell={props.shell}
      title={`Looks wrong? ${props.validationId}`}
      description="Tell us whether a verdict is wrong: your answer trains the checks and pays credits."
      done={props.done}
      message={props.message}
    >
      <p>
        <a href={`${back}#result-${props.validationId}`}>Back to the job</a>
      </p>
      {filed ? <Filed filed={filed} /> : ""}
      {asked ? (
        <form method="post" action={`${back}/feedback/${encodeURIComponent(props.validationId)}`}>
          <Csrf token={props.shell.csrfToken} />
          <input type="hidden" name="setId" value={asked.setId} />
          <input type="hidden" name="jobId" value={asked.jobId} />
          <input type="hidden" name="validationId" value={asked.validationId ?? ""} />
          <p>
            The check <code safe>{props.validationId}</code> said <strong safe>{asked.storedVerdict ?? ""}</strong>.
            Answering pays {String(asked.rewardCredits)} credits, what the check cost on this job.
          </p>
          {asked.questions.map((q) => (
            <Question question={q} />
          ))}
          <button type="submit">File feedback</button>
        </form>
      ) : (
        ""
      )}
    </DashboardPage>
  );
}
