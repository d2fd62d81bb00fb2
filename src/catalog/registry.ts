import type { ValidationModule } from "../validations/types";
import { noLoremIpsum } from "../validations/web/no-lorem-ipsum";
import { noUnrenderedPlaceholders } from "../validations/web/no-unrendered-placeholders";
import { imageAltText } from "../validations/web/image-alt-text";
import { pageTitle } from "../validations/web/page-title";
import { metaDescription } from "../validations/web/meta-description";
import { htmlLang } from "../validations/web/html-lang";
import { viewportMeta } from "../validations/web/viewport-meta";
import { singleH1 } from "../validations/web/single-h1";
import { headingOrder } from "../validations/web/heading-order";
import { requiredTextPresent } from "../validations/web/required-text-present";
import { openGraphTags } from "../validations/web/open-graph-tags";
import { canonicalUrl } from "../validations/web/canonical-url";
import { noAccidentalNoindex } from "../validations/web/no-accidental-noindex";
import { formLabels } from "../validations/web/form-labels";
import { mixedContent } from "../validations/web/mixed-content";
import { fontSizeBodyMinMax } from "../validations/web/font-size-body-min-max";
import { forbiddenTextAbsent } from "../validations/web/forbidden-text-absent";
import { linkDomainAllowlist } from "../validations/web/link-domain-allowlist";
import { structuredDataValid } from "../validations/web/structured-data-valid";
import { colorContrast } from "../validations/web/color-contrast";
import { spelling } from "../validations/web/spelling";
import { noHorizontalOverflow } from "../validations/web/no-horizontal-overflow";
import { layoutNotBroken } from "../validations/web/layout-not-broken";
import { ctaVisible } from "../validations/web/cta-visible";
import { tapTargets } from "../validations/web/tap-targets";
import { responsiveConsistency } from "../validations/web/responsive-consistency";
import { logoUsage } from "../validations/web/logo-usage";
import { brandColors } from "../validations/web/brand-colors";
import { consoleErrors } from "../validations/web/console-errors";
import { brokenImages } from "../validations/web/broken-images";
import { brokenLinks } from "../validations/web/broken-links";
import { accessibilityWcag } from "../validations/web/accessibility-wcag";
import { noKeyboardTrap } from "../validations/web/no-keyboard-trap";
import { focusVisible } from "../validations/web/focus-visible";
import { favicon } from "../validations/web/favicon";
import { pageWeight } from "../validations/web/page-weight";
import { coreWebVitalsLab } from "../validations/web/core-web-vitals-lab";
import { emailSubjectLength } from "../validations/email/email-subject-length";
import { emailListUnsubscribeHeader } from "../validations/email/email-list-unsubscribe-header";
import { emailOneClickUnsubscribe } from "../validations/email/email-one-click-unsubscribe";
import { emailUnsubscribeLink } from "../validations/email/email-unsubscribe-link";
import { emailPostalAddress } from "../validations/email/email-postal-address";
import { emailPlainTextPart } from "../validations/email/email-plain-text-part";
import { emailGmailClipping } from "../validations/email/email-gmail-clipping";
import { emailPreheader } from "../validations/email/email-preheader";
import { emailNoMergeTags } from "../validations/email/email-no-merge-tags";
import { emailNoLoremIpsum } from "../validations/email/email-no-lorem-ipsum";
import { emailImageAltText } from "../validations/email/email-image-alt-text";
import { emailSecureLinks } from "../validations/email/email-secure-links";
import { emailUtmTracking } from "../validations/email/email-utm-tracking";
import { emailDarkModeSupport } from "../validations/email/email-dark-mode-support";
import { emailFontSize } from "../validations/email/email-font-size";
import { emailHtmlLang } from "../validations/email/email-html-lang";
import { emailLayoutTablesPresentation } from "../validations/email/email-layout-tables-presentation";
import { emailFromDisplayName } from "../validations/email/email-from-display-name";
import { emailReplyToValid } from "../validations/email/email-reply-to-valid";
import { emailHeadersValid } from "../validations/email/email-headers-valid";
import { emailAuthentication } from "../validations/email/email-authentication";
import { emailProviderRequirements } from "../validations/email/email-provider-requirements";
import { emailSenderDomain } from "../validations/email/email-sender-domain";
import { emailLayoutNotBroken } from "../validations/email/email-layout-not-broken";
import { emailMobileResponsive } from "../validations/email/email-mobile-responsive";
import { emailDarkModeLegible } from "../validations/email/email-dark-mode-legible";
import { emailImagesOffReadable } from "../validations/email/email-images-off-readable";
import { emailAccessibilityWcag } from "../validations/email/email-accessibility-wcag";
import { emailCtaVisible } from "../validations/email/email-cta-visible";

/** Every validation Assay runs. Adding a check is one module, its fixtures, and one line here. */
export const validationModules: readonly ValidationModule[] = [
  noLoremIpsum,
  noUnrenderedPlaceholders,
  imageAltText,
  pageTitle,
  metaDescription,
  htmlLang,
  viewportMeta,
  singleH1,
  headingOrder,
  requiredTextPresent,
  openGraphTags,
  canonicalUrl,
  noAccidentalNoindex,
  formLabels,
  mixedContent,
  fontSizeBodyMinMax,
  forbiddenTextAbsent,
  linkDomainAllowlist,
  structuredDataValid,
  colorContrast,
  spelling,
  noHorizontalOverflow,
  layoutNotBroken,
  ctaVisible,
  tapTargets,
  responsiveConsistency,
  logoUsage,
  brandColors,
  consoleErrors,
  brokenImages,
  brokenLinks,
  accessibilityWcag,
  noKeyboardTrap,
  focusVisible,
  favicon,
  pageWeight,
  coreWebVitalsLab,
  emailSubjectLength,
  emailListUnsubscribeHeader,
  emailOneClickUnsubscribe,
  emailUnsubscribeLink,
  emailPostalAddress,
  emailPlainTextPart,
  emailGmailClipping,
  emailPreheader,
  emailNoMergeTags,
  emailNoLoremIpsum,
  emailImageAltText,
  emailSecureLinks,
  emailUtmTracking,
  emailDarkModeSupport,
  emailFontSize,
  emailHtmlLang,
  emailLayoutTablesPresentation,
  emailFromDisplayName,
  emailReplyToValid,
  emailHeadersValid,
  emailAuthentication,
  emailProviderRequirements,
  emailSenderDomain,
  emailLayoutNotBroken,
  emailMobileResponsive,
  emailDarkModeLegible,
  emailImagesOffReadable,
  emailCtaVisible,
  emailAccessibilityWcag,
];

const byId = new Map<string, ValidationModule>();
for (const m of validationModules) {
  if (byId.has(m.meta.id) || byId.has(m.meta.slug)) throw new Error(`duplicate validation id or slug ${m.meta.id}`);
  byId.set(m.meta.id, m);
  if (m.meta.slug !== m.meta.id) byId.set(m.meta.slug, m);
}

/** Finds a module by id or slug. */
export function findValidation(idOrSlug: string): ValidationModule | undefined {
  return byId.get(idOrSlug);
}
