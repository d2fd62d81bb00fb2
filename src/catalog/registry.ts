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
