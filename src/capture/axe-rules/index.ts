import { ariaBrailleProhibited } from "./aria-braille-prohibited";
import { type AxeCheckOverride, checkOverridesScript } from "./check-override";
import { emptyAriaValue } from "./empty-aria-value";
import { hiddenFocus } from "./hidden-focus";
import { labelInName } from "./label-in-name";
import { prohibitedName } from "./prohibited-name";
import { FIRST_REFRESH_RULES, isFirstValidRefresh } from "./first-refresh";
import { frameTabOrder } from "./frame-tab-order";
import { headerAssignedCells } from "./header-assigned-cells";
import { assayNavigationBlock, headingAfterNavigation, mainLandmarkAfterNavigation } from "./non-repeated-content";
import type { AssayAxeRule } from "./rule";
import { zoomedTextClipped } from "./zoomed-text-clipped";
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
 * narrows axe's meta-refresh rules to the refresh a browser follows (first-refresh.ts), and puts Assay's checks in
 * place of some of axe's (CHECK_OVERRIDES), and in
 * no-autoplay-audio (autoplay-audio.ts).
 */
export const ASSAY_AXE_RULES: readonly AssayAxeRule[] = [
  frameTabOrder,
  headerAssignedCells,
  ariaBrailleProhibited,
  mainLandmarkAfterNavigation,
  headingAfterNavigation,
  zoomedTextClipped,
  autoplayAudioShort,
  autoplayAudioHasControl,
];

/**
 * Assay's checks in place of axe's, each deciding on principle what axe's own leaves for review or misjudges, and
 * asking axe's check about the rest: label-in-name.ts, empty-aria-value.ts, prohibited-name.ts, hidden-focus.ts.
 */
export const CHECK_OVERRIDES: readonly AxeCheckOverride[] = [
  labelInName,
  emptyAriaValue,
  prohibitedName,
  ...hiddenFocus,
];

/**
 * The rules that judge the page zoomed to 200%: the axe gatherer runs them by name on the page laid out at that
 * zoom's viewport (gatherers/axe.ts), and turns them off in the run at the size the page loaded at.
 */
export const ZOOMED_AXE_RULES: readonly string[] = [zoomedTextClipped.id];

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
  // axe's no-autoplay-audio asks Assay's check, on what the media probe measured, and no longer reviews every fail.
  const audioCheck = `{ id: ${JSON.stringify(AUDIO_CONTROL_CHECK)}, evaluate: ${audioControlEvaluate.toString()}, metadata: ${JSON.stringify({ impact: "moderate", messages: AUDIO_CONTROL_MESSAGES })} }`;
  const audioRule = `{ id: "no-autoplay-audio", selector: "audio, video", matches: ${playsSoundByItself.toString()}, reviewOnFail: false, all: [${JSON.stringify(AUDIO_CONTROL_CHECK)}], any: [], none: [] }`;
  return `${shared}\naxe.configure({ checks: [${[...checks, audioCheck].join(", ")}], rules: [${[...configured, ...narrowed, audioRule].join(", ")}] });\n${checkOverridesScript(CHECK_OVERRIDES)}`;
}
