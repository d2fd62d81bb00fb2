import type { Children } from "@kitajs/html";

/**
 * The frame of every server-rendered page: English, a title, readable without JavaScript or CSS. Colours keep
 * a contrast of at least 4.5:1 (WCAG AA): near-black on white, white on the dark blue of the buttons.
 */
const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #ffffff; margin: 0; }
  main { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input, select { font: inherit; padding: .5rem; border: 1px solid #4b5563; border-radius: 4px; width: 100%; box-sizing: border-box; }
  button { font: inherit; padding: .5rem 1rem; margin: 1rem .5rem 0 0; border-radius: 4px; border: 1px solid #1e3a8a; background: #1e3a8a; color: #ffffff; cursor: pointer; }
  button.secondary { background: #ffffff; color: #1e3a8a; }
  button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  a { color: #1e3a8a; }
  .notice { padding: .75rem 1rem; border-left: 4px solid #b91c1c; background: #fef2f2; color: #7f1d1d; }
  .code { font: 600 1.5rem/1.2 ui-monospace, monospace; letter-spacing: .1em; }
`;

export function Layout(props: { title: string; children: Children }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · Assay</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
