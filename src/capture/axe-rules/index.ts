import { ariaBrailleProhibited } from "./aria-braille-prohibited";
import { LABEL_IN_NAME_CHECK, labelInNameEvaluate } from "./label-in-name";
import { FIRST_REFRESH_RULES, isFirstValidRefresh } from "./first-refresh";
import { frameTabOrder } from "./frame-tab-order";
import { headerAssignedCells } from "./header-assigned-cells";
import { assayNavigationBlock, headingAfterNavigation, mainLandmarkAfterNavigation } from "./non-repeated-content";
import type { AssayAxeRule } from "./rule";
import {
  AUDIO_CONTROL_CHECK,
  AUDIO_CONTROL_MESSAGES,
  audioControlEvaluate,
  autoplayAudioHasControl,
  autoplayAudioShort,
  playsSoundByItself,
} from "./autoplay-audio";

/**
 * Assay's own axe-core rules, for W3C ACT rules axe-core leaves out (docs/act.md): each one module here, added to
 * axe with axe.configure before the run, reported by accessibility-wcag like axe's own rules (tagged for the WCAG
 * level they belong to, and "assay"). A rule's functions run in the page, serialised: self-contained. The script also
 * narrows axe's meta-refresh rules to the refresh a browser follows (first-refresh.ts), and puts Assay's check in axe's
 * label-content-name-mismatch (label-in-name.ts) and in no-autoplay-audio (autoplay-audio.ts).
 */
export const ASSAY_AXE_RULES: readonly AssayAxeRule[] = [
  frameTabOrder,
  headerAssignedCells,
  ariaBrailleProhibited,
  mainLandmarkAfterNavigation,
  headingAfterNavigation,
  autoplayAudioShort,
  autoplayAudioHasControl,
];

/** Functions several rules call, installed as globals of the world axe runs in. */
const SHARED = [assayNavigationBlock];

const actPage = (id: string) => `https://www.w3.org/WAI/standards-guidelines/act/rules/${id}/`;

/** The script that adds Assay's rules to the axe-core loaded in a page. */
export function assayAxeRulesScript(rules: readonly AssayAxeRule[] = ASSAY_AXE_RULES): string {
  const checks = rules.map(
    (r) =>
      `{ id: ${JSON.stringify(`${r.id}-check`)}, evaluate: ${r.evaluate.toString()}, metadata: ${JSON.stringify({
        impact: r.impact,
        messages: r.messages,
      })} }`,
  );
  const configured = rules.map(
    (r) =>
      `{ id: ${JSON.stringify(r.id)}, selector: ${JSON.stringify(r.selector)}, matches: ${r.matches.toString()}, ` +
      `tags: ${JSON.stringify(r.tags)}, excludeHidden: ${!r.includeHidden}, impact: ${JSON.stringify(r.impact)}, all: [${JSON.stringify(`${r.id}-check`)}], ` +
      `any: [], none: [], actIds: ${JSON.stringify([r.actId])}, metadata: ${JSON.stringify({
        description: r.description,
        help: r.help,
        helpUrl: actPage(r.actId),
      })} }`,
  );
  const narrowed = FIRST_REFRESH_RULES.map(
    (id) => `{ id: ${JSON.stringify(id)}, matches: ${isFirstValidRefresh.toString()} }`,
  );
  const shared = SHARED.map((fn) => `globalThis[${JSON.stringify(fn.name)}] = ${fn.toString()};`).join("\n");
  // axe's label-content-name-mismatch asks Assay's check, which passes what is no mismatch and asks axe's otherwise.
  const labelCheck = `{ id: ${JSON.stringify(LABEL_IN_NAME_CHECK)}, evaluate: ${labelInNameEvaluate.toString()}, options: axe._audit.checks["label-content-name-mismatch"].options, metadata: axe._audit.data.checks["label-content-name-mismatch"] }`;
  const labelRule = `{ id: "label-content-name-mismatch", any: [${JSON.stringify(LABEL_IN_NAME_CHECK)}] }`;
  // axe's no-autoplay-audio asks Assay's check, on what the media probe measured, and no longer reviews every fail.
  const audioCheck = `{ id: ${JSON.stringify(AUDIO_CONTROL_CHECK)}, evaluate: ${audioControlEvaluate.toString()}, metadata: ${JSON.stringify({ impact: "moderate", messages: AUDIO_CONTROL_MESSAGES })} }`;
  const audioRule = `{ id: "no-autoplay-audio", selector: "audio, video", matches: ${playsSoundByItself.toString()}, reviewOnFail: false, all: [${JSON.stringify(AUDIO_CONTROL_CHECK)}], any: [], none: [] }`;
  return `${shared}\naxe.configure({ checks: [${[...checks, labelCheck, audioCheck].join(", ")}], rules: [${[...configured, ...narrowed, labelRule, audioRule].join(", ")}] });`;
}
