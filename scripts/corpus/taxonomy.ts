/**
 * The synthetic corpus (../shared/corpus beside the repository, or ASSAY_CORPUS_DIR; written for this project): where
 * it is, its cases, and which check owns each defect of its taxonomy. Read by scripts/accuracy.ts and
 * scripts/corpus/judge-run.ts.
 */
import { join } from "node:path";

export const SYNTHETIC_CORPUS =
  process.env.ASSAY_CORPUS_DIR ?? join(import.meta.dir, "..", "..", "..", "shared", "corpus");

export interface SyntheticCase {
  path: string;
  subject: "web" | "email";
  defects: string[];
  clean: boolean;
}

/** Which validation owns each (subject, defect) of the taxonomy. */
export const DEFECT_OWNERS: Record<string, string> = {
  "web/lorem-ipsum": "no-lorem-ipsum",
  "web/unrendered-placeholder": "no-unrendered-placeholders",
  "web/image-missing-alt": "image-alt-text",
  "web/image-broken": "broken-images",
  "web/link-broken": "broken-links",
  "web/low-contrast-text": "color-contrast",
  "web/horizontal-overflow-mobile": "no-horizontal-overflow",
  "web/missing-title": "page-title",
  "web/missing-meta-description": "meta-description",
  "web/missing-lang": "html-lang",
  "web/missing-viewport-meta": "viewport-meta",
  "web/multiple-h1": "single-h1",
  "web/no-h1": "single-h1",
  "web/heading-level-skip": "heading-order",
  "web/form-input-unlabeled": "form-labels",
  "web/tiny-body-text": "font-size-body-min-max",
  "web/mixed-content": "mixed-content",
  "web/console-error": "console-errors",
  "web/text-overlap": "layout-not-broken",
  "web/cta-hidden-mobile": "cta-visible",
  "web/missing-og-tags": "open-graph-tags",
  "web/noindex-accidental": "no-accidental-noindex",
  "web/misspelling": "spelling",
  "email/missing-list-unsubscribe-header": "email-list-unsubscribe-header",
  "email/missing-one-click-unsubscribe": "email-one-click-unsubscribe",
  "email/no-unsubscribe-link-in-body": "email-unsubscribe-link",
  "email/missing-postal-address": "email-postal-address",
  "email/no-plain-text-part": "email-plain-text-part",
  "email/html-over-102kb": "email-gmail-clipping",
  "email/missing-preheader": "email-preheader",
  "email/unrendered-merge-tag": "email-no-merge-tags",
  "email/image-missing-alt": "email-image-alt-text",
  "email/insecure-link": "email-secure-links",
  "email/utm-missing": "email-utm-tracking",
  "email/subject-too-long": "email-subject-length",
  "email/lorem-ipsum": "email-no-lorem-ipsum",
  "email/missing-dark-mode-meta": "email-dark-mode-support",
  "email/tiny-text": "email-font-size",
  "email/missing-html-lang": "email-html-lang",
  "email/layout-table-no-role": "email-layout-tables-presentation",
  "email/from-display-name-missing": "email-from-display-name",
  "email/reply-to-invalid": "email-reply-to-valid",
  "email/broken-mobile-layout": "email-mobile-responsive",
};

/** Checks whose judgment also covers another defect type: a fail there is a true detection, not a false fail. */
export const ALSO_COVERS: Record<string, string[]> = {
  "layout-not-broken": ["web/image-broken"],
  "responsive-consistency": ["web/cta-hidden-mobile"],
  // axe-core's WCAG A/AA rules include image-alt, color-contrast, html-has-lang, document-title and label.
  "accessibility-wcag": [
    "web/image-missing-alt",
    "web/low-contrast-text",
    "web/missing-lang",
    "web/missing-title",
    "web/form-input-unlabeled",
  ],
  // With images blocked, an image without alt text is a blank box: the images-off render judges the same defect.
  "email-images-off-readable": ["email/image-missing-alt"],
};

/**
 * Checks that own or also cover a taxonomy defect are scored against the labels. The labels say nothing
 * about what other checks judge (dark-mode legibility, canonical URLs…), so their fails are listed apart,
 * unscored, for a person to read: "clean" means free of taxonomy defects, not of everything.
 */
export const SCORED = new Set([...Object.values(DEFECT_OWNERS), ...Object.keys(ALSO_COVERS)]);

/** What a scored check should say on a synthetic case: fail when the case has a defect it owns or covers. */
export function syntheticExpectation(c: SyntheticCase, check: string): "pass" | "fail" {
  const key = (d: string) => `${c.subject}/${d}`;
  const owns = c.defects.some((d) => DEFECT_OWNERS[key(d)] === check);
  const covers = c.defects.some((d) => ALSO_COVERS[check]?.includes(key(d)));
  return owns || covers ? "fail" : "pass";
}
