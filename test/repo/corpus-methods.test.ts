import { expect, test } from "bun:test";
import { rowMethods } from "../../scripts/corpus/methods";

/** How scripts/accuracy.ts attributes a result row to the method that decided it (issue 28). */
const pixelsPass = { message: "pass: …", method: "pixels" as const, measured: { outcome: "pass" } };
const review = { message: "needs review: …", method: "pixels" as const, measured: { outcome: "needs review" } };

test("a fail rests on its failing findings' methods, counted under each", () => {
  const axeFail = { message: "4.47:1", method: "axe" as const };
  const pixelFail = { message: "1.9:1", method: "pixels" as const };
  expect(rowMethods({ validationId: "color-contrast", verdict: "fail", findings: [axeFail, review] })).toEqual(["axe"]);
  expect(
    rowMethods({ validationId: "color-contrast", verdict: "fail", findings: [axeFail, pixelFail, pixelsPass] }),
  ).toEqual(["axe", "pixels"]);
});

test("a pass is the check's own method and the methods of its passing findings; with a finding left undecided it stayed needs review", () => {
  expect(rowMethods({ validationId: "color-contrast", verdict: "pass", findings: [] })).toEqual(["axe"]);
  expect(rowMethods({ validationId: "color-contrast", verdict: "pass", findings: [pixelsPass] })).toEqual([
    "axe",
    "pixels",
  ]);
  expect(rowMethods({ validationId: "color-contrast", verdict: "pass", findings: [pixelsPass, review] })).toEqual([
    "needs review",
  ]);
});

test("findings that do not say fall back to the check's declared method; a model's verdict is the model's", () => {
  expect(rowMethods({ validationId: "page-title", verdict: "fail", findings: [{ message: "no <title>" }] })).toEqual([
    "dom",
  ]);
  expect(rowMethods({ validationId: "layout-not-broken", verdict: "pass", judge: { model: "m" } })).toEqual(["model"]);
});
