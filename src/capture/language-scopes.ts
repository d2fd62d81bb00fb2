import type { LanguageScope } from "./artifact-shapes";
import type { WebPage } from "./gatherers/web-page";

/** Scopes kept per page besides the page's own (a page with a long list of languages keeps its first ones). */
const MAX_PART_SCOPES = 60;
/** Characters kept of a scope's text: as many as franc reads (its MAX_LENGTH). */
const MAX_CHARS = 2048;

/**
 * The text of each language scope of the page (ACT's "text inheriting its programmatic language" from an element),
 * read with the axe-core already loaded in `world` (its flat tree, visibility and accessible names): for the html
 * element and each element of the body with a non-empty lang attribute, the text nodes shown or exposed to
 * assistive technology whose nearest element with a lang is that element, the accessible names and descriptions
 * given by attributes (alt, aria-label, aria-labelledby, title, aria-describedby, aria-description, placeholder) of
 * its exposed elements, and, for the html element, the document's title. Frames are not entered. The language is
 * decided on the server (src/validations/shared/language-of-text.ts).
 */
export function languageScopesIn(world: Pick<WebPage["world"], "run">): Promise<LanguageScope[]> {
  return world.run(
    ({ maxScopes, maxChars }: { maxScopes: number; maxChars: number }) => {
      const axe = (window as unknown as { axe: any }).axe;
      if (!document.contentType.includes("html") || !(document.documentElement instanceof HTMLElement)) return [];
      const root = axe.setup(document);
      try {
        const { dom, text } = axe.commons;
        type Scope = { target: string; lang: string; page: boolean; parts: string[]; length: number };
        const scopes: Scope[] = [];
        const add = (scope: Scope | null, s: string | null | undefined) => {
          const t = (s ?? "").replace(/\s+/g, " ").trim();
          if (!scope || !t || scope.length >= maxChars) return;
          scope.parts.push(t);
          scope.length += t.length + 1;
        };
        const NAMING = ["alt", "aria-label", "aria-labelledby", "title", "placeholder"];
        const body = document.body;
        const walk = (v: any, scope: Scope | null, inBody: boolean) => {
          const node: Node = v.actualNode;
          if (node.nodeType === Node.TEXT_NODE) {
            const parent = v.parent;
            if (parent && (dom.isVisibleOnScreen(parent) || dom.isVisibleToScreenReaders(parent)))
              add(scope, node.nodeValue);
            return;
          }
          if (node.nodeType !== Node.ELEMENT_NODE) return;
          const el = node as Element;
          const here = inBody || el === body;
          const lang = el.getAttribute("lang")?.trim();
          if (lang && el instanceof HTMLElement) {
            const page = el === document.documentElement;
            const part = here && !page && scopes.length <= maxScopes;
            scope = page || part ? { target: axe.utils.getSelector(el), lang, page, parts: [], length: 0 } : null;
            if (scope) scopes.push(scope);
            if (page) add(scope, document.title);
          }
          if (scope && dom.isVisibleToScreenReaders(v)) {
            if (NAMING.some((a) => el.hasAttribute(a))) add(scope, text.accessibleTextVirtual(v));
            add(scope, el.getAttribute("aria-description"));
            for (const ref of dom.idrefs(el, "aria-describedby")) add(scope, ref?.textContent);
          }
          for (const child of v.children ?? []) walk(child, scope, here);
        };
        walk(root, null, false);
        return scopes
          .filter((s) => s.parts.length)
          .map((s) => ({ target: s.target, lang: s.lang, page: s.page, text: s.parts.join(" ").slice(0, maxChars) }));
      } finally {
        axe.teardown();
      }
    },
    { maxScopes: MAX_PART_SCOPES, maxChars: MAX_CHARS },
  );
}
