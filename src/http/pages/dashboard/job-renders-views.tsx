import type { JobItem, RenderItem } from "./jobs-views";

/**
 * A job's screenshots, each once, in the order the results name them, captioned by size or by mail client and mode;
 * beside each email render, what the client's profile did to the message: how it darkened it, then its changes
 * grouped by the source of their rule (the source linked), each with the rule, the first few shown and the rest
 * collapsed.
 */

/** Changes shown per source before the rest are collapsed. */
const SHOWN_CHANGES = 4;

const ACTIONS: Record<string, string> = {
  "declaration-removed": "Dropped",
  "declaration-rewritten": "Rewrote",
  "selector-removed": "Dropped the selector",
  "media-query-removed": "Dropped",
  "at-rule-removed": "Dropped",
  "style-block-removed": "Dropped a",
  "element-removed": "Removed",
  "element-rewritten": "Rewrote",
  "attribute-removed": "Dropped the attribute",
  "names-prefixed": "Prefixed",
  clipped: "Clipped",
  "conditional-comments": "Evaluated",
  "layout-limited": "Limited",
  "images-blocked": "Blocked",
  "link-rewritten": "Redirected",
};

type Change = RenderItem["changes"][number];

function ChangeLine(props: { change: Change }) {
  const c = props.change;
  const target = c.action === "style-block-removed" ? "<style> block" : c.target;
  return (
    <li>
      <span safe>{ACTIONS[c.action] ?? c.action}</span> <code safe>{target}</code>
      {c.selector && c.selector !== c.target ? (
        <>
          {" "}
          on <code safe>{c.selector}</code>
        </>
      ) : (
        ""
      )}
      {c.line ? `, line ${c.line}` : ""}
      {c.count > 1 ? ` (×${c.count})` : ""}: <span safe>{c.rule}</span>
    </li>
  );
}

/** One render's changes, grouped by the source of their rule, the source named and linked once per group. */
export function RenderChanges(props: { render: RenderItem; label: string }) {
  const { render } = props;
  const groups = new Map<string, Change[]>();
  for (const c of render.changes) groups.set(c.source, [...(groups.get(c.source) ?? []), c]);
  const id = `changes-${render.clientId}-${render.formFactor}`;
  return (
    <section class="render-changes" aria-labelledby={id}>
      <h3 id={id}>
        What <span safe>{props.label}</span> did to the message
      </h3>
      {render.darkMode ? (
        <p>
          Dark mode, by{" "}
          {render.darkMode.method === "forced-inversion"
            ? `forced inversion (${render.darkMode.extent ?? "full"})`
            : render.darkMode.method === "prefers-color-scheme"
              ? "the message's own prefers-color-scheme styles"
              : "none"}
          : <span safe>{render.darkMode.how}</span>
        </p>
      ) : (
        ""
      )}
      {render.changes.length === 0 ? <p>Nothing: the message is shown as sent.</p> : ""}
      {[...groups].map(([sourceId, changes]) => {
        const source = render.sources[sourceId];
        return (
          <div class="change-group">
            <h4>
              {source && /^https:\/\//.test(source.url) ? (
                <a href={source.url} safe>
                  {source.name}
                </a>
              ) : (
                <span safe>{source?.name ?? sourceId}</span>
              )}{" "}
              ({String(changes.length)})
              {source ? <span class="checked" safe>{`, checked ${source.checked}`}</span> : ""}
            </h4>
            <ul>
              {changes.slice(0, SHOWN_CHANGES).map((c) => (
                <ChangeLine change={c} />
              ))}
            </ul>
            {changes.length > SHOWN_CHANGES ? (
              <details>
                <summary>{`${changes.length - SHOWN_CHANGES} more from this source`}</summary>
                <ul>
                  {changes.slice(SHOWN_CHANGES).map((c) => (
                    <ChangeLine change={c} />
                  ))}
                </ul>
              </details>
            ) : (
              ""
            )}
          </div>
        );
      })}
      {render.changesOmitted ? <p>{`And ${render.changesOmitted} more distinct changes, counted only.`}</p> : ""}
    </section>
  );
}

/**
 * The render whose screenshot this is: the capture's name is `<jobId>-<client>-<form factor>.jpg` (the page's link
 * is a share link to that name).
 */
function renderOf(job: JobItem, url: string): RenderItem | undefined {
  for (const r of job.results)
    for (const render of r.renders ?? [])
      if (url.includes(`/${job.jobId}-${render.clientId}-${render.formFactor}.jpg`)) return render;
  return undefined;
}

/** Every screenshot once, in the order the results name them; an email render's with its changes beside it. */
export function Screenshots(props: { job: JobItem }) {
  const shots = new Map<string, string>();
  for (const r of props.job.results)
    for (const c of r.captures ?? [])
      if (!shots.has(c.screenshotUrl)) shots.set(c.screenshotUrl, c.caption ?? c.viewport);
  if (shots.size === 0) return "";
  const rendered = [...shots].map(([url, label]) => ({ url, label, render: renderOf(props.job, url) }));
  const figure = (url: string, label: string) => (
    <figure class="shot">
      <a href={url}>
        <img src={url} alt={`Screenshot at ${label}`} width="320" loading="lazy" />
      </a>
      <figcaption>
        <span safe>{label}</span>: <a href={url}>view large</a>
      </figcaption>
    </figure>
  );
  return (
    <section aria-labelledby="screenshots-heading">
      <h2 id="screenshots-heading">Screenshots</h2>
      <p>The image links are temporary share links: reload this page for fresh ones.</p>
      {rendered.some((s) => !s.render) ? (
        <div class="shots">{rendered.filter((s) => !s.render).map((s) => figure(s.url, s.label))}</div>
      ) : (
        ""
      )}
      {rendered
        .filter((s) => s.render)
        .map((s) => (
          <div class="render">
            {figure(s.url, s.label)}
            <RenderChanges render={s.render!} label={s.label} />
          </div>
        ))}
    </section>
  );
}
