import type { Children } from "@kitajs/html";

/**
 * The frame of every server-rendered page: English, a title and description, the mark as icon, readable
 * without JavaScript or CSS. Colours keep a contrast of at least 4.5:1 (WCAG AA): near-black on white, white
 * on the dark blue of the buttons.
 */
const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #ffffff; margin: 0; overflow-wrap: anywhere; }
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
  .shell { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid #d1d5db; }
  .shell nav a, .site nav a { margin-right: 1rem; }
  .site { padding: .75rem 1rem; border-bottom: 1px solid #d1d5db; }
  .shell form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0; max-width: 100%; }
  .shell select { width: auto; max-width: 100%; }
  .inline-form { display: inline; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  fieldset { border: 1px solid #d1d5db; margin: 1rem 0; } fieldset p { margin: .25rem 0; }
  .pass { color: #166534; } .fail { color: #b91c1c; } .error { color: #92400e; }
  figure { margin: 1rem 0; } figure img { max-width: 100%; border: 1px solid #d1d5db; }
  .shots { display: flex; flex-wrap: wrap; gap: 0 1.5rem; } .shots figure img { width: 320px; height: auto; }
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
  .overlay { position: relative; display: inline-block; } .overlay img { display: block; max-width: 100%; height: auto; }
  .overlay img.over { position: absolute; top: 0; left: 0; opacity: .5; }
  @media (max-width: 40rem) {
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

/** The header of the pages outside the dashboard: where a visitor without an account can go. */
function SiteHeader() {
  return (
    <header class="site">
      <nav aria-label="Site">
        <a href="/validations">Checks</a>
        <a href="/playground">Playground</a>
        <a href="/signin">Sign in</a>
      </nav>
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
