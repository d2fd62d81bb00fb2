import type { Children } from "@kitajs/html";

/**
 * The frame of every server-rendered page: English, a title and description, the mark as icon, readable
 * without JavaScript or CSS. Colours keep a contrast of at least 4.5:1 (WCAG AA): near-black on white, white
 * on the dark blue of the buttons.
 */
const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #ffffff; margin: 0; overflow-wrap: break-word; }
  .long { overflow-wrap: anywhere; }
  main { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }
  main.wide { max-width: 64rem; margin-top: 1.5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  label.inline { display: inline; font-weight: 400; margin: 0 1rem 0 .25rem; }
  input, select { font: inherit; padding: .5rem; border: 1px solid #4b5563; border-radius: 4px; width: 100%; box-sizing: border-box; }
  input[type=checkbox], input[type=radio] { width: auto; }
  textarea { font: inherit; padding: .5rem; border: 1px solid #4b5563; border-radius: 4px; width: 100%; box-sizing: border-box; }
  button { font: inherit; padding: .5rem 1rem; margin: 1rem .5rem 0 0; border-radius: 4px; border: 1px solid #1e3a8a; background: #1e3a8a; color: #ffffff; cursor: pointer; }
  button.secondary { background: #ffffff; color: #1e3a8a; }
  button.small { padding: .25rem .75rem; margin: 0; }
  button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  a { color: #1e3a8a; }
  .notice { padding: .75rem 1rem; border-left: 4px solid #b91c1c; background: #fef2f2; color: #7f1d1d; }
  .done { padding: .75rem 1rem; border-left: 4px solid #166534; background: #f0fdf4; color: #14532d; }
  .code { font: 600 1.5rem/1.2 ui-monospace, monospace; letter-spacing: .1em; }
  .secret { font: 1rem/1.4 ui-monospace, monospace; word-break: break-all; background: #f3f4f6; padding: .5rem; }
  .table-scroll { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
  th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #d1d5db; vertical-align: top; }
  header.site, header.shell { padding: .5rem 1rem; border-bottom: 1px solid #d1d5db; }
  header .bar { display: flex; align-items: center; gap: 1rem; }
  header .brand { font-weight: 700; text-decoration: none; color: #111827; padding: .5rem 0; }
  header nav.links { display: flex; gap: 1rem; flex: 1; min-width: 0; overflow-x: auto; white-space: nowrap; }
  header nav.links a, header .account > a, header summary { display: inline-block; padding: .5rem 0; }
  header nav.sections { flex: none; border-top: 1px solid #e5e7eb; }
  header nav a[aria-current] { font-weight: 700; }
  header .account { position: relative; white-space: nowrap; min-width: 0; }
  header .account > a { max-width: 10rem; overflow: hidden; text-overflow: ellipsis; vertical-align: bottom; }
  header details.account-menu summary { cursor: pointer; color: #1e3a8a; }
  header details.account-menu > div { position: absolute; right: 0; z-index: 1; width: 18rem; max-width: calc(100vw - 2rem); background: #ffffff; border: 1px solid #d1d5db; border-radius: 4px; padding: .75rem; white-space: normal; }
  header details.account-menu form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0 0; }
  header details.account-menu select { width: auto; max-width: 100%; }
  .inline-form { display: inline; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  fieldset { border: 1px solid #d1d5db; margin: 1rem 0; } fieldset p { margin: .25rem 0; }
  .pass { color: #166534; } .fail { color: #b91c1c; } .error { color: #92400e; }
  figure { margin: 1rem 0; } figure img { max-width: 100%; border: 1px solid #d1d5db; }
  .shots { display: flex; flex-wrap: wrap; gap: 0 1.5rem; } .shots figure img { width: 320px; height: auto; }
  div.render { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0 1.5rem; border-top: 1px solid #d1d5db; }
  div.render figure { flex: 0 1 auto; width: 322px; max-width: 100%; } div.render figure img { width: 320px; height: auto; }
  .render-changes { flex: 1 1 18rem; min-width: 0; } .render-changes h3 { font-size: 1.125rem; }
  .render-changes h4 { margin: .75rem 0 .25rem; font-size: 1rem; } .render-changes .checked { font-weight: 400; }
  .render-changes ul { padding-left: 1.25rem; margin: .25rem 0; } .render-changes li { margin: .25rem 0; overflow-wrap: anywhere; }
  .render-changes summary { cursor: pointer; padding: .25rem 0; }
  pre { white-space: pre-wrap; background: #f3f4f6; padding: .5rem; }
  .filters a { margin-left: .75rem; } .filters a[aria-current] { font-weight: 700; }
  .header-value { word-break: break-word; font: .875rem/1.4 ui-monospace, monospace; }
  .badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-weight: 600; font-size: .875rem; border: 1px solid currentColor; white-space: nowrap; }
  .badge-pass { color: #14532d; background: #f0fdf4; } .badge-blocked { color: #7f1d1d; background: #fef2f2; }
  .badge-undecided, .badge-pending { color: #78350f; background: #fffbeb; }
  .decision { padding: .75rem 1rem; border: 1px solid #d1d5db; border-left-width: 6px; border-radius: 4px; }
  .decision-pass { border-left-color: #166534; } .decision-blocked { border-left-color: #b91c1c; }
  .decision-line { font-size: 1.25rem; font-weight: 600; }
  ul.cards { list-style: none; padding: 0; } ul.cards > li { border: 1px solid #d1d5db; border-radius: 4px; padding: .5rem .75rem; margin: .5rem 0; }
  .card-title { font-size: 1.125rem; margin: 0 0 .25rem; }
  th { white-space: nowrap; } tbody th { white-space: normal; }
  .sparkline { vertical-align: middle; }
  .severity { color: #374151; background: #f3f4f6; font-weight: 400; }
  .severity-critical, .severity-major, .severity-required, .severity-prohibited { color: #7f1d1d; background: #fef2f2; }
  .severity-minor, .severity-recommended { color: #78350f; background: #fffbeb; }
  section.result { border-top: 1px solid #d1d5db; padding-top: .25rem; }
  ul.findings { list-style: none; padding: 0; }
  li.finding { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; border-left: 3px solid #d1d5db; padding: 0 0 0 .75rem; margin: .75rem 0; }
  .finding-text { flex: 1 1 18rem; min-width: 0; } .finding-text p { margin: .25rem 0; }
  figure.finding-shot { margin: .25rem 0; flex: 0 1 auto; max-width: 100%; } .finding-shot img { width: 240px; max-width: 100%; height: auto; }
  a.crop { display: block; position: relative; overflow: hidden; width: 320px; max-width: 100%; height: 200px; border: 1px solid #d1d5db; }
  a.crop img { position: absolute; width: auto; max-width: none; border: 0; }
  .outline { position: absolute; outline: 3px solid #b91c1c; outline-offset: 1px; }
  dl.measured { display: flex; flex-wrap: wrap; gap: 0 1rem; margin: .25rem 0; } dl.measured div { display: flex; gap: .25rem; }
  dl.measured dt { font-weight: 600; } dl.measured dt::after { content: ":"; } dl.measured dd { margin: 0; }
  .looks-wrong { font-size: .875rem; }
  details.passed > summary h2, details.passed > summary, details.start-job > summary h2 { display: inline; }
  details.start-job { margin: 1rem 0; } details.start-job > summary { cursor: pointer; }
  .start-forms { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0 2rem; }
  .start-forms h3 { margin-bottom: 0; }
  details.passed { margin: 1.5rem 0; }
  details.email-part { margin: .5rem 0; } details.email-part > summary { cursor: pointer; font-weight: 600; padding: .25rem 0; }
  iframe.email-frame { width: 100%; height: 32rem; border: 1px solid #d1d5db; background: #ffffff; }
  .client-render { display: flex; flex-wrap: wrap; gap: 0 2rem; } .client-render figure { flex: 0 1 320px; max-width: 100%; }
  .client-render figure img { width: 320px; max-width: 100%; height: auto; } .client-render .changes { flex: 1 1 20rem; min-width: 0; }
  .overlay { position: relative; display: inline-block; } .overlay img { display: block; max-width: 100%; height: auto; }
  .overlay img.over { position: absolute; top: 0; left: 0; opacity: .5; }
  @media (max-width: 30rem) {
    header.site, header.shell { padding: .25rem .75rem; } header .bar, header nav.links { gap: .75rem; }
  }
  @media (max-width: 48rem) {
    table.cards-narrow, table.cards-narrow tbody, table.cards-narrow tr, table.cards-narrow th, table.cards-narrow td { display: block; }
    table.cards-narrow thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.cards-narrow tr { border: 1px solid #d1d5db; border-radius: 4px; margin: .5rem 0; padding: .25rem .5rem; }
    table.cards-narrow th, table.cards-narrow td { border: 0; padding: .2rem 0; }
    table.cards-narrow td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
  }
`;

export interface LayoutProps {
  title: string;
  /** The site's public origin (PUBLIC_BASE_URL): link previews need absolute URLs. */
  origin: string;
  /** One sentence on what the page is for (the meta description and link previews). */
  description?: string;
  /** Public pages: their one address (the canonical link and og:url). */
  canonical?: string;
  /** Public pages: schema.org structured data, written as one JSON-LD block. */
  jsonLd?: object;
  /** Dashboard pages: wider, under the shell (navigation, organization, sign-out). */
  wide?: boolean;
  shell?: Children;
  children: Children;
}

export function Layout(props: LayoutProps) {
  const title = `${props.title} · Assay`;
  const description = props.description ?? "Assay: a headless QA agent for webpages and emails.";
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{title}</title>
          <meta name="description" content={description} />
          <meta property="og:title" content={title} />
          <meta property="og:description" content={description} />
          <meta property="og:type" content="website" />
          <meta property="og:image" content={`${props.origin}/brand/assay-mark.svg`} />
          {props.canonical ? (
            <>
              <link rel="canonical" href={props.canonical} />
              <meta property="og:url" content={props.canonical} />
            </>
          ) : (
            ""
          )}
          {props.jsonLd ? <script type="application/ld+json">{jsonLdText(props.jsonLd)}</script> : ""}
          <link rel="icon" href="/brand/assay-mark.svg" type="image/svg+xml" />
          <style>{STYLE}</style>
        </head>
        <body>
          {props.shell ?? <SiteHeader />}
          <main class={props.wide ? "wide" : undefined}>{props.children}</main>
        </body>
      </html>
    </>
  );
}

/**
 * The one header of every page, the catalog's and the dashboard's alike: the product, where anyone can go (Checks,
 * Playground, Docs), and the account at the end (the dashboard's account menu; a page that knows nobody is signed in
 * offers Sign in; a public page, which does not read the session, leads to the dashboard). A second row, when given,
 * is the area's own navigation (the dashboard's sections, the catalog's sets): one line that scrolls sideways on a
 * narrow screen.
 */
export function SiteHeader(props: { account?: Children; sections?: Children; class?: string }) {
  return (
    <header class={props.class ?? "site"}>
      <div class="bar">
        <a class="brand" href="/">
          Assay
        </a>
        <nav aria-label="Site" class="links">
          <a href="/validations">Checks</a>
          <a href="/playground">Playground</a>
          <a href="/llms.txt">Docs</a>
        </nav>
        <div class="account">{props.account ?? <a href="/dashboard">Dashboard</a>}</div>
      </div>
      {props.sections ?? ""}
    </header>
  );
}

/** JSON for a script element: `<` escaped, so no text in it can close the element. */
const jsonLdText = (data: object) => JSON.stringify(data).replaceAll("<", "\\u003c");

/** A refusal or problem, read out by screen readers as it appears. */
export function Notice(props: { message?: string }) {
  return props.message ? (
    <p class="notice" role="alert" safe>
      {props.message}
    </p>
  ) : (
    ""
  );
}

/** What a form just did. */
export function Done(props: { message?: string }) {
  return props.message ? (
    <p class="done" role="status" safe>
      {props.message}
    </p>
  ) : (
    ""
  );
}

/** A wide table on a narrow screen scrolls within its region (focusable, so keyboards can scroll it), not the page. */
export function ScrollRegion(props: { label: string; children: Children }) {
  return (
    <div class="table-scroll" role="region" aria-label={props.label} tabindex="0">
      {props.children}
    </div>
  );
}
