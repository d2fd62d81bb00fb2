import { expect, test } from "bun:test";
import type { FormControlInfo } from "../../../src/capture/artifacts";
import { formLabels } from "../../../src/validations/web/form-labels";
import { evaluate, selectors, withDom } from "../support/web-artifacts";

const field = (
  selector: string,
  labelledBy: FormControlInfo["labelledBy"],
  tag = "input",
  type = "text",
): FormControlInfo => ({ selector, visible: true, tag, type, labelledBy });

test("fields labelled any accepted way pass", async () => {
  const out = await evaluate(
    formLabels,
    withDom({
      formControls: [
        field("#e", "label-for", "input", "email"),
        field("#s", "ancestor-label", "select", ""),
        field("#t", "aria-label", "textarea", ""),
        field("#q", "title"),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("All 4");
});

test("a field without a label fails, naming it", async () => {
  const out = await evaluate(
    formLabels,
    withDom({
      formControls: [
        field("#e", "label-for", "input", "email"),
        field("#phone", null, "input", "tel"),
        field("#notes", null, "textarea", ""),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#phone", "#notes"]);
  expect(out.findings.map((f) => f.message)).toEqual(["<input type=tel> has no label", "<textarea> has no label"]);
});
