import type { Severity } from "../validations/types";
import { findValidation } from "./registry";

export interface ValidationSet {
  id: string;
  name: string;
  description: string;
  subjectType: "url" | "email";
  validationIds: string[];
}

const WEB_ESSENTIALS = [
  "no-lorem-ipsum",
  "no-unrendered-placeholders",
  "image-alt-text",
  "page-title",
  "meta-description",
  "html-lang",
  "viewport-meta",
  "single-h1",
  "heading-order",
];

/** Sets only hold checks that run without parameters, so a set id alone is always a complete job. */
const definitions: ValidationSet[] = [
  {
    id: "web-essentials",
    name: "Web essentials",
    description:
      "The basics every public page should get right: content left unfinished, titles, language, headings, alt text and the mobile viewport.",
    subjectType: "url",
    validationIds: WEB_ESSENTIALS,
  },
  {
    id: "seo",
    name: "Search and sharing",
    description:
      "What search engines and link previews read: title, description, canonical URL, robots directives, Open Graph tags and structured data.",
    subjectType: "url",
    validationIds: [
      "page-title",
      "meta-description",
      "canonical-url",
      "no-accidental-noindex",
      "open-graph-tags",
      "structured-data-valid",
      "single-h1",
    ],
  },
  {
    id: "accessibility",
    name: "Accessibility",
    description:
      "WCAG A and AA basics that code can decide: alt text, language, labels, contrast, heading structure and legible text, plus axe-core's rules for WCAG 2.1 AA (or the version and level asked for).",
    subjectType: "url",
    validationIds: [
      "image-alt-text",
      "html-lang",
      "form-labels",
      "color-contrast",
      "heading-order",
      "font-size-body-min-max",
      "accessibility-wcag",
    ],
  },
  {
    id: "launch-readiness",
    name: "Launch readiness",
    description:
      "A broad pre-launch sweep: the web essentials plus broken links and images, JavaScript errors, mixed content, the favicon, sharing tags, an accidental noindex, spelling, and a layout that holds up on phones and desktops.",
    subjectType: "url",
    validationIds: [
      ...WEB_ESSENTIALS,
      "broken-links",
      "broken-images",
      "console-errors",
      "mixed-content",
      "favicon",
      "open-graph-tags",
      "no-accidental-noindex",
      "spelling",
      "no-horizontal-overflow",
      "cta-visible",
      "layout-not-broken",
    ],
  },
  {
    id: "brand-compliance",
    name: "Brand compliance",
    description:
      "How the brand is presented: a layout that holds up and keeps its essentials and call to action at every size, legible contrast, spelling, no placeholder copy or unrendered template tags, and sharing previews. The brand's own assets need parameters, so add them through validations[]: logo-usage with logoUrl, brand-colors with palette.",
    subjectType: "url",
    validationIds: [
      "layout-not-broken",
      "responsive-consistency",
      "cta-visible",
      "color-contrast",
      "spelling",
      "no-lorem-ipsum",
      "no-unrendered-placeholders",
      "open-graph-tags",
    ],
  },
  {
    id: "marketing",
    name: "Marketing email",
    description:
      "A campaign before it goes out: the unsubscribe header, one-click unsubscribe, the footer's unsubscribe link and postal address, nothing left unfinished (merge tags, Latin filler text), how it shows in the inbox (subject length, preheader, From name, Gmail clipping), campaign tracking on own links, https links, the plain-text alternative, dark mode, readable text and alt text; and, rendered in the native mail clients, a layout that holds, fits a phone, stays legible in dark mode and readable with images off, with its call to action visible. Name the sender's other domains with ownDomains through validations[] when they differ from the From address.",
    subjectType: "email",
    validationIds: [
      "email-list-unsubscribe-header",
      "email-one-click-unsubscribe",
      "email-unsubscribe-link",
      "email-postal-address",
      "email-no-merge-tags",
      "email-no-lorem-ipsum",
      "email-subject-length",
      "email-preheader",
      "email-from-display-name",
      "email-gmail-clipping",
      "email-utm-tracking",
      "email-secure-links",
      "email-plain-text-part",
      "email-dark-mode-support",
      "email-font-size",
      "email-image-alt-text",
      "email-layout-not-broken",
      "email-mobile-responsive",
      "email-dark-mode-legible",
      "email-images-off-readable",
      "email-cta-visible",
    ],
  },
  {
    id: "transactional",
    name: "Transactional email",
    description:
      "Receipts, confirmations, password resets and notifications: well-formed headers, a named sender and a Reply-To that works, a subject that fits, no unrendered merge tags or filler, https links, the plain-text alternative, a preheader, no Gmail clipping, and the accessibility basics; and, rendered in the native mail clients, a layout that holds, fits a phone, stays legible in dark mode and readable with images off, with its call to action visible.",
    subjectType: "email",
    validationIds: [
      "email-headers-valid",
      "email-from-display-name",
      "email-reply-to-valid",
      "email-subject-length",
      "email-no-merge-tags",
      "email-no-lorem-ipsum",
      "email-preheader",
      "email-secure-links",
      "email-plain-text-part",
      "email-gmail-clipping",
      "email-image-alt-text",
      "email-html-lang",
      "email-layout-not-broken",
      "email-mobile-responsive",
      "email-dark-mode-legible",
      "email-images-off-readable",
      "email-cta-visible",
    ],
  },
  {
    id: "deliverability",
    name: "Email deliverability",
    description:
      "What mailbox providers and spam filters look at: SPF, DKIM and DMARC, what Gmail, Yahoo and Outlook.com require of bulk senders, well-formed headers, the From name and Reply-To, List-Unsubscribe with RFC 8058 one-click, an unsubscribe link and postal address in the body, the plain-text alternative, https links, the subject length, unrendered merge tags and Gmail clipping.",
    subjectType: "email",
    validationIds: [
      "email-authentication",
      "email-provider-requirements",
      "email-headers-valid",
      "email-from-display-name",
      "email-reply-to-valid",
      "email-list-unsubscribe-header",
      "email-one-click-unsubscribe",
      "email-unsubscribe-link",
      "email-postal-address",
      "email-plain-text-part",
      "email-secure-links",
      "email-subject-length",
      "email-no-merge-tags",
      "email-gmail-clipping",
    ],
  },
  {
    id: "email-accessibility",
    name: "Email accessibility",
    description:
      "An email everyone can read: the language declared, alt text on images, layout tables hidden from screen readers, text of at least 13px, dark-mode support, and a plain-text alternative; and, rendered in the native mail clients, a message that fits a phone without sideways scrolling, stays legible in dark mode and still reads with images off.",
    subjectType: "email",
    validationIds: [
      "email-html-lang",
      "email-image-alt-text",
      "email-layout-tables-presentation",
      "email-font-size",
      "email-dark-mode-support",
      "email-plain-text-part",
      "email-mobile-responsive",
      "email-dark-mode-legible",
      "email-images-off-readable",
    ],
  },
];

for (const set of definitions) {
  for (const id of set.validationIds) {
    const m = findValidation(id);
    if (!m) throw new Error(`set ${set.id} names unknown validation ${id}`);
    if (m.meta.requiresConfiguration) throw new Error(`set ${set.id} holds ${id}, which needs parameters`);
    if (m.meta.subjectType !== set.subjectType) throw new Error(`set ${set.id} holds ${id} of another subject type`);
  }
}

export const validationSets: readonly ValidationSet[] = definitions;

export function findSet(id: string): ValidationSet | undefined {
  return definitions.find((s) => s.id === id);
}

export function setsContaining(validationId: string): string[] {
  return definitions.filter((s) => s.validationIds.includes(validationId)).map((s) => s.id);
}

export function setSeverities(set: ValidationSet): Record<string, Severity> {
  return Object.fromEntries(set.validationIds.map((id) => [id, findValidation(id)!.meta.severity]));
}
