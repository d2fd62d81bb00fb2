/**
 * axe-core's meta-refresh rules judge every `<meta http-equiv="refresh">`, but a browser follows only the first one
 * whose content it can parse: W3C ACT bc659a and bisz58 apply to that one alone (a page that redirects at once and
 * names a delayed refresh after it passes). This narrows axe's two rules to it.
 *
 * Valid is where HTML's shared declarative refresh steps do not return early: content that is not empty, starts
 * (after whitespace) with digits or a dot, and follows the number with nothing, whitespace, ";" or ",".
 */
export function isFirstValidRefresh(node: Element): boolean {
  const valid = (content: string | null) => {
    if (!content) return false;
    const m = /^[\t\n\f\r ]*(\d*)[\d.]*(.?)/.exec(content)!;
    if (m[1] === "" && content.trimStart()[0] !== ".") return false;
    return m[2] === "" || /[;,\t\n\f\r ]/.test(m[2]!);
  };
  const first = Array.from(document.querySelectorAll("meta[http-equiv]")).find(
    (meta) =>
      meta.getAttribute("http-equiv")!.trim().toLowerCase() === "refresh" && valid(meta.getAttribute("content")),
  );
  return first === node;
}

/** The axe rules narrowed to the first valid refresh. */
export const FIRST_REFRESH_RULES = ["meta-refresh", "meta-refresh-no-exceptions"] as const;
