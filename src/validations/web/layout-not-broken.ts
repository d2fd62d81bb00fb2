import { pass, type WebValidation, type Finding } from "../types";
import { layoutAt, stillnessNote, visualCheck } from "./_helpers";
import { quote } from "../shared/quote";
import type { CaptureSize } from "../../capture/vocabulary";

export const layoutNotBroken: WebValidation = {
  meta: visualCheck({
    id: "layout-not-broken",
    name: "Layout not broken",
    category: "visual",
    severity: "major",
    standard: ["desktop-md"],
    summary: "No text overlaps other text, no word is broken letter by letter, and no visible image is broken.",
    judgment:
      "At each captured size: fails when the client rects of visible text from two unrelated elements (neither contains the other), cut to the glyphs' ink height (a large font at a tight line height overhangs its line by empty ascent), intersect by 4px or more in both width and height; when a visible word of 4 or more Latin, Greek or Cyrillic letters or digits is broken over 3 or more lines at 3 characters a line or fewer (a column narrower than the word, under overflow-wrap: anywhere or word-break: break-all), read only in text whose every line is narrower than 4 ems; or when a visible <img> finished loading with no image data. Text that merely touches, or sits on an image, a long word broken in two, hyphenated words, scripts that break between any characters (CJK, Thai), visually hidden and vertical text pass; so does text outside the page, where nobody can see or scroll to it (a skip link at top:-40px until it is focused, a label at left:-9999px, an element cut to nothing by clip: rect()). After a resize, the page is read once the transitions and animations the resize started have ended (a sidebar sliding away), at most 1.5 s later; the reasoning says where something still moved.",
    engines: ["chromium", "webkit", "gecko"],
    references: [
      { title: "WCAG 2.2 SC 1.4.12 Text Spacing", url: "https://www.w3.org/WAI/WCAG22/Understanding/text-spacing" },
    ],
  }),
  evaluate(artifacts) {
    const findings: Finding[] = [];
    const sizes = Object.keys(artifacts.layout ?? {}) as CaptureSize[];
    for (const size of sizes) {
      const layout = layoutAt(artifacts, size);
      for (const o of layout.textOverlaps) {
        findings.push({
          message: `${quote(o.textA, 40)} overlaps ${quote(o.textB, 40)} by ${o.width}×${o.height}px`,
          selector: `${o.a} ↔ ${o.b}`,
          viewport: size,
          measured: { width: o.width, height: o.height },
        });
      }
      for (const w of layout.brokenWords) {
        findings.push({
          message: `${quote(w.word, 40)} is broken letter by letter over ${w.lines} lines in a column ${w.width}px wide`,
          selector: w.selector,
          viewport: size,
          text: w.word,
          measured: { lines: w.lines, widthPx: w.width },
        });
      }
      for (const img of layout.brokenImages)
        findings.push({ message: "visible image did not load", selector: img.selector, url: img.src, viewport: size });
    }
    const still = stillnessNote(artifacts);
    if (findings.length === 0)
      return pass(
        `At ${sizes.join(", ")}: no overlapping text, no word broken letter by letter and no broken visible image.${still}`,
      );
    const first = findings[0]!;
    return {
      verdict: "fail",
      reason: `Fix ${findings.length} layout fault(s); first at ${first.viewport}: ${first.message} (${first.selector})`,
      reasoning: `Measured text rects, words' lines and images at ${sizes.join(", ")}: ${findings.length} fault(s).${still}`,
      findings,
    };
  },
};
