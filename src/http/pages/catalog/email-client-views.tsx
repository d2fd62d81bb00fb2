import { ScrollRegion } from "../layout";
import { CatalogPage, techArticle, type SetLink } from "./catalog-views";

/**
 * The catalog's mail-client pages: every client the renders were recorded in, and a page per client with the
 * showcase message as it rendered there (light, then dark where the client has a dark variant) and, beside each
 * screenshot, what the client's profile changed, each change with its rule and the rule's source.
 */

/** A recorded render as the pages show it (src/catalog/email-client-examples.ts records it). */
export interface ClientRender {
  clientId: string;
  formFactor: string;
  name: string;
  engine: string;
  colorScheme: "light" | "dark";
  darkMode?: { how: string };
  changes: Array<{
    action: string;
    target: string;
    selector?: string;
    line?: number;
    rule: string;
    source: string;
    count: number;
  }>;
  changesOmitted: number;
  sources: Record<string, { title: string; url: string; checked: string }>;
  image: { file: string; width: number; height: number; renderWidth: number; cut: boolean };
}

export interface ClientSummary {
  clientId: string;
  name: string;
  engine: string;
  formFactor: string;
  changes: number;
  dark: boolean;
}

interface PageFrame {
  base: string;
  sets: SetLink[];
  lastModified: string;
  /** The showcase message's path in the repository. */
  message: string;
}

const INTRO =
  "One marketing message, written to exercise every client's rules (head and body style blocks, a block with a nested at-rule, media queries, a prefers-color-scheme block, flex, grid, float and position, padding on links, background images with and without VML, Outlook conditional comments, remote images), delivered to Assay over SMTP and rendered in every mail-client profile.";

const changeCount = (n: number) => (n === 1 ? "1 change" : `${n} changes`);

export function EmailClientsPage(props: PageFrame & { clients: ClientSummary[] }) {
  const path = "/email-clients";
  const description = "How Assay renders one email in each mail client it emulates, with what each client changed.";
  return (
    <CatalogPage
      base={props.base}
      path={path}
      title="Mail clients: one email in each"
      description={description}
      sets={props.sets}
      jsonLd={techArticle({
        base: props.base,
        path,
        name: "Mail clients",
        description,
        lastModified: props.lastModified,
      })}
    >
      <h1>Mail clients: one email in each</h1>
      <p safe>{INTRO}</p>
      <p>
        The message: <code safe>{props.message}</code>. Recorded on{" "}
        <time datetime={props.lastModified} safe>
          {props.lastModified}
        </time>
        .
      </p>
      <ScrollRegion label="Mail clients">
        <table class="cards-narrow">
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Engine</th>
              <th scope="col">Form factor</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {props.clients.map((c) => (
              <tr>
                <td data-label="Client">
                  <a href={`${props.base}/email-clients/${c.clientId}`} safe>
                    {c.name}
                  </a>
                  {c.dark ? " (light and dark)" : ""}
                </td>
                <td data-label="Engine" safe>
                  {c.engine}
                </td>
                <td data-label="Form factor" safe>
                  {c.formFactor}
                </td>
                <td data-label="Changes">{changeCount(c.changes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </CatalogPage>
  );
}

/** A rule's source, linked when it is a web page (Assay's own rules point into its docs, which the site does not serve). */
function SourceLink(props: { id: string; source?: { title: string; url: string } }) {
  const s = props.source;
  if (!s) return <span safe>{props.id}</span>;
  if (!/^https?:\/\//.test(s.url)) return <span safe>{`${s.title} (${s.url})`}</span>;
  return (
    <a href={s.url} safe>
      {s.title}
    </a>
  );
}

function ChangeTable(props: { render: ClientRender }) {
  const r = props.render;
  if (!r.changes.length) return <p>The profile changed nothing in this message.</p>;
  return (
    <ScrollRegion label={`Changes in ${r.name}`}>
      <table class="cards-narrow">
        <thead>
          <tr>
            <th scope="col">Change</th>
            <th scope="col">Where</th>
            <th scope="col">Rule</th>
          </tr>
        </thead>
        <tbody>
          {r.changes.map((c) => {
            const source = r.sources[c.source];
            return (
              <tr>
                <td data-label="Change">
                  <span safe>{c.action}</span> <code safe>{c.target}</code>
                  {c.count > 1 ? ` (×${c.count})` : ""}
                </td>
                <td data-label="Where">
                  {c.selector ? <code safe>{c.selector}</code> : ""}
                  {c.line ? ` line ${c.line}` : ""}
                </td>
                <td data-label="Rule">
                  <span safe>{c.rule}</span> (
                  <SourceLink id={c.source} source={source} />)
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {r.changesOmitted ? <p>{`And ${changeCount(r.changesOmitted)} more, counted only.`}</p> : ""}
    </ScrollRegion>
  );
}

/** The screenshot's src is root-relative: a written http: address is mixed content wherever the site is published on https. */
function RenderSection(props: { base: string; render: ClientRender; first: boolean }) {
  const r = props.render;
  const mode = r.colorScheme === "dark" ? "Dark mode" : "Light mode";
  const alt = `The showcase message as ${r.name} renders it${r.colorScheme === "dark" ? "" : " in light mode"}, ${r.image.renderWidth} px wide${r.image.cut ? " (cut short)" : ""}.`;
  return (
    <section>
      <h2 safe>{mode}</h2>
      <p>
        <span safe>{`Engine: ${r.engine}. Form factor: ${r.formFactor}, ${r.image.renderWidth} px reading pane.`}</span>
        {r.darkMode ? <span safe>{` Dark mode: ${r.darkMode.how}.`}</span> : ""}
      </p>
      <div class="client-render">
        <figure>
          <a href={`${props.base}/email-clients/images/${r.image.file}`}>
            <img
              src={`/email-clients/images/${r.image.file}`}
              width={String(r.image.width)}
              height={String(r.image.height)}
              alt={alt}
              {...(props.first ? { fetchpriority: "high" } : { loading: "lazy" })}
            />
          </a>
          <figcaption safe>{`${r.name}, ${r.formFactor}${r.image.cut ? ", top of the render" : ""}`}</figcaption>
        </figure>
        <div class="changes">
          <h3 safe>{`What ${r.name} changed: ${changeCount(r.changes.length + r.changesOmitted)}`}</h3>
          <ChangeTable render={r} />
        </div>
      </div>
    </section>
  );
}

export function EmailClientPage(props: PageFrame & { clientId: string; renders: ClientRender[] }) {
  const light = props.renders[0]!;
  const path = `/email-clients/${props.clientId}`;
  const description = `The showcase email as ${light.name} renders it (${light.engine}), with each change its profile made and the rule's source.`;
  const sources = new Map(props.renders.flatMap((r) => Object.entries(r.sources)));
  return (
    <CatalogPage
      base={props.base}
      path={path}
      title={`${light.name}: how it renders an email`}
      description={description}
      sets={props.sets}
      jsonLd={techArticle({ base: props.base, path, name: light.name, description, lastModified: props.lastModified })}
    >
      <h1 safe>{light.name}</h1>
      <p safe>{INTRO}</p>
      <p>
        The message: <code safe>{props.message}</code>. <a href={`${props.base}/email-clients`}>Every mail client</a>.
      </p>
      {props.renders.map((render, i) => (
        <RenderSection base={props.base} render={render} first={i === 0} />
      ))}
      <h2>Rule sources</h2>
      {sources.size ? (
        <ul>
          {[...sources.values()].map((s) => (
            <li>
              <SourceLink id={s.title} source={s} /> <span safe>{`(checked ${s.checked})`}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>No rule of this profile applied to the message.</p>
      )}
    </CatalogPage>
  );
}
