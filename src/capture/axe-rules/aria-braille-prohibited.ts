import type { AssayAxeRule } from "./rule";

/**
 * W3C ACT rule kb1m8s (WCAG 4.1.2), for ARIA 1.3's properties that axe-core 4.14 lets pass wherever they stand:
 * aria-braillelabel gives a name, so it is prohibited wherever aria-label is (a paragraph, a generic element, a
 * role of none); aria-roledescription and aria-brailleroledescription describe a role, so they are prohibited on an
 * element whose role is generic, none or presentation. A screen reader ignores them there, so what they were to say
 * is never said.
 *
 * Applies to an element with one of those attributes (not empty) that is visible to assistive technology. Which
 * names are prohibited is axe's own table (the explicit role's prohibited attributes, or the HTML element's).
 */
export const ariaBrailleProhibited: AssayAxeRule = {
  id: "aria-braille-prohibited",
  selector: "[aria-braillelabel], [aria-roledescription], [aria-brailleroledescription]",
  tags: ["cat.aria", "wcag2a", "wcag412", "assay"],
  impact: "serious",
  actId: "kb1m8s",
  description: "Ensure aria-braillelabel and role descriptions are used only on elements whose role allows them",
  help: "aria-braillelabel, aria-roledescription and aria-brailleroledescription must not be used where ARIA prohibits them",
  messages: {
    pass: "The ARIA properties are allowed on the element's role",
    fail: "The element's role prohibits the property (a name, or a role description, on an element with no role to name or describe), so assistive technology ignores it",
    incomplete: "Whether the element's role allows the property could not be read",
  },
  // Runs in the page, serialised: self-contained (axe calls it with the rule's element).
  matches: function ariaBrailleProhibitedMatches(node: Element): boolean {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const named = ["aria-braillelabel", "aria-roledescription", "aria-brailleroledescription"].some(
      (a) => (node.getAttribute(a) ?? "").trim() !== "",
    );
    return named && axe.commons.dom.isVisibleToScreenReaders(node);
  },
  evaluate: function ariaBrailleProhibitedEvaluate(node: Element): boolean | undefined {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const vNode = axe.utils.getNodeFromTree(node);
    const standards = axe._audit.standards;
    const explicit: string | null = axe.commons.aria.getExplicitRole(vNode, { fallback: true });
    const has = (a: string) => (node.getAttribute(a) ?? "").trim() !== "";
    const namingProhibited = explicit
      ? (standards.ariaRoles[explicit]?.prohibitedAttrs ?? []).includes("aria-label")
      : !standards.htmlElms[vNode.props.nodeName] ||
        axe.commons.standards.getElementSpec(vNode).namingProhibited === true;
    if (has("aria-braillelabel") && namingProhibited) return false;
    const role: string | null = explicit ?? axe.commons.aria.getRole(vNode, { chromium: true });
    const roleless = !role || ["generic", "none", "presentation"].includes(role);
    if ((has("aria-roledescription") || has("aria-brailleroledescription")) && roleless) return false;
    return true;
  },
};
