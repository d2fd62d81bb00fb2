import type { Children } from "@kitajs/html";
import { Layout, ScrollRegion, SiteHeader } from "../layout";

/**
 * The public catalog site's templates: every check by subject and category, a page per check's standard and custom
 * parameters, and a page per set. Props only; the routes (index.ts) read the catalog through the operations.
 */

export type SubjectType = "url" | "email";
export type Kind = "functional" | "visual";

export interface CheckRow {
  id: string;
  slug: string;
  name: string;
  summary: string;
  subjectType: SubjectType;
  category: string;
  kind: Kind;
  credits: number;
  severity: string;
  sets: Array<{ id: string; name: string }>;
}

export interface SetLink {
  id: string;
  name: string;
  subjectType: SubjectType;
}

export interface Example {
  verdict: string;
  reason?: string;
  findings: Array<{ message: string; selector?: string; url?: string; text?: string }>;
}

export interface Parameter {
  name: string;
  description: string;
  format: string;
  default?: unknown;
  example: unknown;
}

export interface Snippets {
  curl: string;
  mcp: string;
  cli: string;
}

export const SUBJECT_NAMES: Record<SubjectType, string> = { url: "Webpages", email: "Emails" };
const KIND_NAMES: Record<Kind, string> = { functional: "Functional", visual: "Visual" };
const FAMILY_FOLDERS = {
  web: "test/fixtures/web",
  email: "test/fixtures/email",
  "email-visual": "test/fixtures/email-visual",
} as const;

/** Prose without its code marks, for attributes (the meta description, link previews). */
const plain = (text: string) => text.replaceAll("`", "");
const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;
const json = (value: unknown) => JSON.stringify(value);

/** The frame of every catalog page: its canonical address, structured data, and the way back to the index and sets. */
export function CatalogPage(props: {
  base: string;
  path: string;
  title: string;
  description: string;
  jsonLd: object;
  sets: SetLink[];
  children: Children;
}) {
  return (
    <Layout
      title={props.title}
      origin={props.base}
      description={props.description}
      canonical={`${props.base}${props.path}`}
      jsonLd={props.jsonLd}
      wide
      shell={
        <SiteHeader
          sections={
            <nav aria-label="Catalog" class="links sections">
              <a href={`${props.base}/validations`}>All checks</a>
              <a href={`${props.base}/email-clients`}>Mail clients</a>
              {props.sets.map((s) => (
                <a href={`${props.base}/validation-sets/${s.id}`} safe>
                  {s.name}
                </a>
              ))}
            </nav>
          }
        />
      }
    >
      {props.children}
    </Layout>
  );
}

/** Catalog prose: `quoted literals` (filler text, misspellings, tags the check looks for) are set as code, so they read as examples. */
function Prose(props: { text: string }) {
  return <>{props.text.split("`").map((part, i) => (i % 2 ? <code safe>{part}</code> : <span safe>{part}</span>))}</>;
}

function CheckTable(props: { base: string; label: string; rows: CheckRow[] }) {
  return (
    <ScrollRegion label={props.label}>
      <table class="cards-narrow">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Kind</th>
            <th scope="col">Price</th>
            <th scope="col">Severity</th>
            <th scope="col">Sets</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr data-check={`${r.id} ${r.name} ${r.category} ${r.summary}`.toLowerCase()}>
              <td data-label="Check">
                <a href={`${props.base}/validations/${r.slug}/standard`} safe>
                  {r.name}
                </a>
              </td>
              <td data-label="Kind">{KIND_NAMES[r.kind]}</td>
              <td data-label="Price">{credits(r.credits)}</td>
              <td data-label="Severity" safe>
                {r.severity}
              </td>
              <td data-label="Sets">
                {r.sets.length
                  ? r.sets.map((s, i) => (
                      <>
                        {i ? ", " : ""}
                        <a href={`${props.base}/validation-sets/${s.id}`} safe>
                          {s.name}
                        </a>
                      </>
                    ))
                  : "none"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Checks grouped by subject, then category (in catalog order). */
function Groups(props: { base: string; rows: CheckRow[] }) {
  const subjects = (["url", "email"] as const).filter((s) => props.rows.some((r) => r.subjectType === s));
  return (
    <>
      {subjects.map((subject) => {
        const rows = props.rows.filter((r) => r.subjectType === subject);
        const categories = [...new Set(rows.map((r) => r.category))];
        return (
          <section class="check-group" aria-labelledby={`subject-${subject}`}>
            <h2 id={`subject-${subject}`}>{SUBJECT_NAMES[subject]}</h2>
            {categories.map((category) => (
              <section class="check-group">
                <h3 safe>{category}</h3>
                <CheckTable
                  base={props.base}
                  label={`${SUBJECT_NAMES[subject]}: ${category}`}
                  rows={rows.filter((r) => r.category === category)}
                />
              </section>
            ))}
          </section>
        );
      })}
    </>
  );
}

export interface IndexFilter {
  subject?: SubjectType;
  kind?: Kind;
  q?: string;
}

/** A filter link: the index with this filter changed and the others kept. */
function filterHref(base: string, filter: IndexFilter, change: Partial<IndexFilter>) {
  const next = { ...filter, ...change };
  const query = new URLSearchParams();
  if (next.subject) query.set("subject", next.subject);
  if (next.kind) query.set("kind", next.kind);
  if (next.q) query.set("q", next.q);
  const text = query.toString();
  return `${base}/validations${text ? `?${text}` : ""}`;
}

function FilterLinks<T extends string>(props: {
  base: string;
  filter: IndexFilter;
  field: "subject" | "kind";
  label: string;
  options: Array<[T, string]>;
}) {
  const current = props.filter[props.field];
  const options: Array<[T | undefined, string]> = [[undefined, "All"], ...props.options];
  return (
    <p class="filters">
      <span class="filter-label">{props.label}:</span>
      {options.map(([value, name]) => (
        <a
          href={filterHref(props.base, props.filter, { [props.field]: value })}
          aria-current={current === value ? "page" : undefined}
        >
          {name}
        </a>
      ))}
    </p>
  );
}

/** Filters the list in place as the visitor types; without JavaScript the form asks the server (?q=). */
const SEARCH_SCRIPT = `
document.getElementById("check-search").addEventListener("input", function (event) {
  var words = event.target.value.toLowerCase().split(/\\s+/).filter(Boolean);
  var shown = 0;
  document.querySelectorAll("tr[data-check]").forEach(function (row) {
    var match = words.every(function (w) { return row.dataset.check.indexOf(w) >= 0; });
    row.hidden = !match;
    if (match) shown++;
  });
  document.querySelectorAll("section.check-group").forEach(function (group) {
    group.hidden = !group.querySelector("tr[data-check]:not([hidden])");
  });
  document.getElementById("check-count").textContent = shown + (shown === 1 ? " check" : " checks");
});
`;

export function IndexPage(props: {
  base: string;
  rows: CheckRow[];
  total: number;
  filter: IndexFilter;
  sets: SetLink[];
}) {
  const description = `Every check Assay runs on webpages and emails (${props.total} in all): what each one promises, its price and severity, and the sets that hold it.`;
  return (
    <CatalogPage
      base={props.base}
      path="/validations"
      title="The check catalog"
      description={description}
      sets={props.sets}
      jsonLd={{
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "WebSite", name: "Assay check catalog", url: `${props.base}/validations` },
          {
            "@type": "ItemList",
            name: "Assay checks",
            numberOfItems: props.rows.length,
            itemListElement: props.rows.map((r, i) => ({
              "@type": "ListItem",
              position: i + 1,
              name: r.name,
              url: `${props.base}/validations/${r.slug}/standard`,
            })),
          },
        ],
      }}
    >
      <h1>The check catalog</h1>
      <p>{description}</p>
      <form method="get" action={`${props.base}/validations`} role="search">
        <label for="check-search">Search the checks</label>
        <input id="check-search" type="search" name="q" value={props.filter.q ?? ""} autocomplete="off" />
        {props.filter.subject ? <input type="hidden" name="subject" value={props.filter.subject} /> : ""}
        {props.filter.kind ? <input type="hidden" name="kind" value={props.filter.kind} /> : ""}
        <button type="submit">Search</button>
      </form>
      <FilterLinks
        base={props.base}
        filter={props.filter}
        field="subject"
        label="Subject"
        options={[
          ["url", SUBJECT_NAMES.url],
          ["email", SUBJECT_NAMES.email],
        ]}
      />
      <FilterLinks
        base={props.base}
        filter={props.filter}
        field="kind"
        label="Kind"
        options={[
          ["functional", KIND_NAMES.functional],
          ["visual", KIND_NAMES.visual],
        ]}
      />
      <p id="check-count" role="status">
        {props.rows.length === 1 ? "1 check" : `${props.rows.length} checks`}
      </p>
      <Groups base={props.base} rows={props.rows} />
      <script>{SEARCH_SCRIPT}</script>
    </CatalogPage>
  );
}

function ExampleResult(props: { title: string; fixture: string; example: Example }) {
  const e = props.example;
  return (
    <section>
      <h3 safe>{props.title}</h3>
      <p>
        Fixture <code safe>{props.fixture}</code>; Assay's verdict:{" "}
        <strong class={e.verdict} safe>
          {e.verdict}
        </strong>
        .
      </p>
      {e.reason ? (
        <p>
          Reason: <samp safe>{e.reason}</samp>
        </p>
      ) : (
        ""
      )}
      {e.findings.length ? (
        <ul>
          {e.findings.map((f) => (
            <li>
              <samp safe>{[f.message, f.selector, f.url, f.text].filter(Boolean).join(" · ")}</samp>
            </li>
          ))}
        </ul>
      ) : (
        <p>No findings.</p>
      )}
    </section>
  );
}

function Snippet(props: { title: string; code: string }) {
  return (
    <>
      <h3 safe>{props.title}</h3>
      <pre tabindex="0">
        <code safe>{props.code}</code>
      </pre>
    </>
  );
}

export interface StandardProps {
  base: string;
  sets: SetLink[];
  check: {
    id: string;
    slug: string;
    name: string;
    summary: string;
    judgment: string;
    subjectType: SubjectType;
    category: string;
    kind: Kind;
    severity: string;
    credits: number;
    requiresConfiguration: boolean;
    parameters: Parameter[];
    references: Array<{ title: string; url: string }>;
    sets: Array<{ id: string; name: string }>;
  };
  /** What the check reads: the capture's artifact kinds. */
  reads: string[];
  /** Capture sizes (webpages) or mail clients by form factor (emails); empty for an email check that renders nothing. */
  renders: string[];
  examples?: { family: keyof typeof FAMILY_FOLDERS; pass: Example; fail: Example };
  snippets: Snippets;
  lastModified: string;
}

export const techArticle = (props: {
  base: string;
  path: string;
  name: string;
  description: string;
  lastModified: string;
}) => ({
  "@context": "https://schema.org",
  "@type": "TechArticle",
  headline: props.name,
  description: props.description,
  url: `${props.base}${props.path}`,
  dateModified: props.lastModified,
  publisher: { "@type": "Organization", name: "Assay" },
});

export function StandardPage(props: StandardProps) {
  const c = props.check;
  const path = `/validations/${c.slug}/standard`;
  const thresholds = c.parameters.filter((p) => p.default !== undefined);
  return (
    <CatalogPage
      base={props.base}
      path={path}
      title={`${c.name}: the standard`}
      description={plain(c.summary)}
      sets={props.sets}
      jsonLd={techArticle({
        base: props.base,
        path,
        name: c.name,
        description: plain(c.summary),
        lastModified: props.lastModified,
      })}
    >
      <h1 safe>{c.name}</h1>
      <p>
        <Prose text={c.summary} />
      </p>
      <p>
        <code safe>{c.id}</code> · {SUBJECT_NAMES[c.subjectType]} · <span safe>{c.category}</span> ·{" "}
        {KIND_NAMES[c.kind]} · severity <span safe>{c.severity}</span> · {credits(c.credits)}
        {c.requiresConfiguration ? " · needs parameters" : ""}
      </p>
      <h2>What it promises</h2>
      <p>
        <Prose text={c.judgment} />
      </p>
      <h2>What it measures</h2>
      <p>It reads {props.reads.join(", ")}.</p>
      {thresholds.length ? (
        <ul>
          {thresholds.map((p) => (
            <li>
              <code safe>{p.name}</code>: <span safe>{p.description}</span> Default <code safe>{json(p.default)}</code>.
            </li>
          ))}
        </ul>
      ) : (
        <p>It has no thresholds to set.</p>
      )}
      {c.parameters.length ? (
        <p>
          <a href={`${props.base}/validations/${c.slug}/custom`}>Custom parameters of {c.name}</a>
        </p>
      ) : (
        ""
      )}
      <h2>{c.subjectType === "url" ? "Capture sizes" : "Mail clients"}</h2>
      {props.renders.length ? (
        <ul>
          {props.renders.map((r) => (
            <li safe>{r}</li>
          ))}
        </ul>
      ) : (
        <p>It reads the message itself and renders it in no mail client.</p>
      )}
      <h2>Examples</h2>
      {props.examples ? (
        <>
          <p>What Assay reported for the check's own fixtures, recorded from real jobs.</p>
          <ExampleResult
            title="A passing example"
            fixture={`${FAMILY_FOLDERS[props.examples.family]}/${c.id}/pass.${props.examples.family === "web" ? "html" : "eml"}`}
            example={props.examples.pass}
          />
          <ExampleResult
            title="A failing example"
            fixture={`${FAMILY_FOLDERS[props.examples.family]}/${c.id}/fail.${props.examples.family === "web" ? "html" : "eml"}`}
            example={props.examples.fail}
          />
        </>
      ) : (
        <p>
          This check has no fixtures to take examples from: its tests run on signed mail against fixture DNS records, so
          no example is shown rather than an invented one.
        </p>
      )}
      <h2>Run it</h2>
      <Snippet title="HTTP" code={props.snippets.curl} />
      <Snippet title="MCP: run_job arguments" code={props.snippets.mcp} />
      <Snippet title="Command line" code={props.snippets.cli} />
      <h2>Sets that hold it</h2>
      {c.sets.length ? (
        <ul>
          {c.sets.map((s) => (
            <li>
              <a href={`${props.base}/validation-sets/${s.id}`} safe>
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>
          No set holds it
          {c.requiresConfiguration ? ": it needs parameters, and a set is always a complete job without them" : ""}.
        </p>
      )}
      <h2>References</h2>
      <ul>
        {c.references.map((r) => (
          <li>
            <a href={r.url} safe>
              {r.title}
            </a>
          </li>
        ))}
      </ul>
    </CatalogPage>
  );
}

export interface CustomProps {
  base: string;
  sets: SetLink[];
  check: { id: string; slug: string; name: string; summary: string; parameters: Parameter[] };
  /** One example job per parameter, as the HTTP body. */
  jobs: Record<string, string>;
  lastModified: string;
}

export function CustomPage(props: CustomProps) {
  const c = props.check;
  const path = `/validations/${c.slug}/custom`;
  const description = `The parameters of ${c.name}: each one's format, default and a job that sets it.`;
  return (
    <CatalogPage
      base={props.base}
      path={path}
      title={`${c.name}: custom parameters`}
      description={description}
      sets={props.sets}
      jsonLd={techArticle({
        base: props.base,
        path,
        name: `${c.name}: custom parameters`,
        description,
        lastModified: props.lastModified,
      })}
    >
      <h1 safe>{`${c.name}: custom parameters`}</h1>
      <p>
        <Prose text={c.summary} />
      </p>
      <p>
        <a href={`${props.base}/validations/${c.slug}/standard`}>The standard of {c.name}</a>
      </p>
      {c.parameters.map((p) => (
        <section>
          <h2>
            <code safe>{p.name}</code>
          </h2>
          <p safe>{p.description}</p>
          <p>
            Format: <span safe>{p.format}</span>. Default:{" "}
            {p.default === undefined ? "none (required)" : <code safe>{json(p.default)}</code>}. Example:{" "}
            <code safe>{json(p.example)}</code>.
          </p>
          <Snippet title={`A job setting ${p.name}`} code={props.jobs[p.name]!} />
        </section>
      ))}
    </CatalogPage>
  );
}

export interface SetProps {
  base: string;
  sets: SetLink[];
  set: { id: string; name: string; description: string; subjectType: SubjectType; blocking: string[] };
  rows: CheckRow[];
  lastModified: string;
}

export function SetPage(props: SetProps) {
  const s = props.set;
  const path = `/validation-sets/${s.id}`;
  const total = props.rows.reduce((n, r) => n + r.credits, 0);
  return (
    <CatalogPage
      base={props.base}
      path={path}
      title={`The ${s.name} set`}
      description={s.description}
      sets={props.sets}
      jsonLd={{
        "@context": "https://schema.org",
        "@type": "ItemList",
        name: s.name,
        description: s.description,
        url: `${props.base}${path}`,
        numberOfItems: props.rows.length,
        itemListElement: props.rows.map((r, i) => ({
          "@type": "ListItem",
          position: i + 1,
          name: r.name,
          url: `${props.base}/validations/${r.slug}/standard`,
        })),
      }}
    >
      <h1 safe>{`The ${s.name} set`}</h1>
      <p safe>{s.description}</p>
      <p>
        {SUBJECT_NAMES[s.subjectType]} · {props.rows.length} checks · {credits(total)} in all · set id{" "}
        <code safe>{s.id}</code>
      </p>
      <CheckTable base={props.base} label={`The checks of ${s.name}`} rows={props.rows} />
      <p>
        Blocking when they fail (required severity):{" "}
        {s.blocking.length ? <span safe>{s.blocking.join(", ")}</span> : "none"}.
      </p>
    </CatalogPage>
  );
}

/** A check or set near what a 404's path named, offered as "did you mean". */
export interface NearestLink {
  href: string;
  name: string;
  id: string;
}

export function NotFoundPage(props: {
  base: string;
  sets: SetLink[];
  path: string;
  message: string;
  nearest: NearestLink[];
}) {
  return (
    <CatalogPage
      base={props.base}
      path={props.path}
      title="Not found"
      description={props.message}
      sets={props.sets}
      jsonLd={{ "@context": "https://schema.org", "@type": "WebPage", name: "Not found" }}
    >
      <h1>Not found</h1>
      <p safe>{props.message}</p>
      {props.nearest.length > 0 && (
        <>
          <h2>Did you mean</h2>
          <ul>
            {props.nearest.map((n) => (
              <li>
                <a href={n.href} safe>
                  {n.name}
                </a>{" "}
                <code safe>{n.id}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        <a href={`${props.base}/validations`}>Browse every check</a>
      </p>
    </CatalogPage>
  );
}
