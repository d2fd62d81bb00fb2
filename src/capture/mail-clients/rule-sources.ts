import { CANIEMAIL_UPDATED } from "./caniemail-support";
import type { RuleSourceId } from "./sanitize-record";

/**
 * Where each profile rule comes from: the page or data set that states it, and the day it was last checked against
 * it. Each recorded change names one of these (sanitize-record.ts); docs/email-clients.md lists them per profile.
 */
export interface RuleSource {
  /** A few words, as a verdict's reason cites it. */
  name: string;
  title: string;
  url: string;
  /** The day the rules were last checked against the source (caniemail: its data's own date). */
  checked: string;
}

export const RULE_SOURCES: Record<RuleSourceId, RuleSource> = {
  caniemail: {
    name: "caniemail",
    title: "caniemail.com: HTML and CSS support per mail client (the caniemail package's data and its notes)",
    url: "https://www.caniemail.com/",
    checked: CANIEMAIL_UPDATED,
  },
  "gmail-css": {
    name: "Google's Gmail CSS support page",
    title: "Google: CSS support in Gmail (style blocks, supported properties and media queries)",
    url: "https://developers.google.com/workspace/gmail/design/css",
    checked: "2026-11-27",
  },
  "word-engine": {
    name: "Microsoft's Word engine support levels",
    title:
      "Microsoft: Word 2007 HTML and CSS Rendering Capabilities in Outlook 2007 (the CORE, COREEXTENDED and FULL support levels classic Outlook for Windows still renders with)",
    url: "https://learn.microsoft.com/en-us/previous-versions/office/developer/office-2007/aa338201%28v=office.12%29",
    checked: "2026-11-27",
  },
  "gmail-links": {
    name: "Gmail's link redirect, as observed",
    title:
      'Gmail\'s link redirect as messages saved from Gmail show it: the href kept, data-saferedirecturl="https://www.google.com/url?q=<href>&source=gmail&ust=…&usg=…" and target="_blank" added, the click sent through Google',
    url: "https://medium.com/@ohadinho25/googles-gmail-tracks-link-clicks-in-e-mail-messages-281c47a9d48a",
    checked: "2026-11-27",
  },
  observed: {
    name: "observed client behaviour",
    title:
      "Client behaviour no vendor documents, as email developers observe it and caniemail's notes record it (Gmail's 102 KB clip, a whole style block dropped on a nested at-rule, the body shown as a div)",
    url: "https://www.caniemail.com/features/html-style/",
    checked: "2026-11-27",
  },
  assay: {
    name: "Assay's render rule",
    title: "Assay's own rule for every render: nothing in a message runs or loads",
    url: "docs/email-clients.md#how-a-render-is-made",
    checked: "2026-11-27",
  },
};
