import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const formLabels: WebValidation = {
  meta: domCheck({
    id: "form-labels",
    name: "Form fields are labelled",
    category: "accessibility",
    severity: "major",
    summary: "Every input, select and textarea has an accessible label.",
    judgment:
      "Fails when an <input> (other than hidden, submit, button, reset, image), <select> or <textarea> has none of: a <label for>, an enclosing <label>, a non-empty aria-label, aria-labelledby pointing at text, or a non-empty title. A placeholder alone is not a label.",
    references: [
      {
        title: "WCAG 2.2 SC 3.3.2 Labels or Instructions",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/labels-or-instructions",
      },
      { title: "WAI forms tutorial: labels", url: "https://www.w3.org/WAI/tutorials/forms/labels/" },
    ],
  }),
  evaluate(artifacts) {
    const controls = domAt(artifacts).formControls;
    const unlabelled = controls.filter((c) => c.labelledBy === null);
    if (unlabelled.length === 0) return pass(`All ${controls.length} form field(s) have a label.`);
    return failWith(
      `Give ${unlabelled.length} form field(s) a <label for> (a placeholder is not a label)`,
      unlabelled.map((c) => ({
        message: `<${c.tag}${c.tag === "input" ? ` type=${c.type}` : ""}> has no label`,
        selector: c.selector,
      })),
      `${unlabelled.length} of ${controls.length} form field(s) have no accessible label.`,
    );
  },
};
