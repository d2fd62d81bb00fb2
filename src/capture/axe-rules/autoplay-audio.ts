import type { AssayAxeRule } from "./rule";

/**
 * WCAG 1.4.2 Audio Control: sound that plays by itself for more than 3 seconds needs a way to pause, stop or mute
 * it. What decides is measured in the page before axe runs (media-probe.ts); these read it. axe-core's own
 * no-autoplay-audio (W3C ACT 80f0bf) only reads the duration and `controls`, and asks for review on every failure;
 * Assay's check takes its place (AUDIO_CONTROL_CHECK): it fails sound that lasts more than 3 seconds with no
 * control (failing both of its input rules, aaa1bf and 4c31df, which are Assay's two best-practice rules below).
 *
 * Every function here runs in the page, serialised: self-contained, reading globalThis.assayMediaReadings.
 */

/** An element the rules apply to: playing sound by itself, or undecided whether it does. */
export function playsSoundByItself(node: Element): boolean {
  const r = (globalThis as any).assayMediaReadings?.get(node);
  return !!r && (!r.skip || r.skip.startsWith("unknown"));
}

/** The sound lasts at most 3 seconds, or someone can pause or mute it. */
export function audioControlEvaluate(node: Element): boolean | undefined {
  const r = (globalThis as any).assayMediaReadings?.get(node);
  if (!r || r.skip) return undefined;
  if (r.sounds <= 3 || r.controlled === true) return true;
  return r.controlled === false ? false : undefined;
}

/** The check that takes the place of axe's in no-autoplay-audio. */
export const AUDIO_CONTROL_CHECK = "assay-audio-control";

export const AUDIO_CONTROL_MESSAGES = {
  pass: "The media's sound lasts 3 seconds or less, or it has a visible control that pauses or mutes it",
  fail: "The media plays sound by itself for more than 3 seconds and nothing on the page pauses or mutes it",
  incomplete:
    "The media plays by itself: whether its sound lasts more than 3 seconds, or whether the page has a control that pauses or mutes it, could not be settled",
};

/** W3C ACT aaa1bf (technique G60): the sound that plays by itself stops within 3 seconds. */
export const autoplayAudioShort: AssayAxeRule = {
  id: "autoplay-audio-short",
  selector: "audio, video",
  // An audio element without controls is not rendered, and plays all the same.
  includeHidden: true,
  tags: ["cat.time-and-media", "best-practice", "assay"],
  impact: "moderate",
  actId: "aaa1bf",
  description: "Ensure audio that plays automatically stops within 3 seconds",
  help: "Audio that plays automatically must not last more than 3 seconds",
  messages: {
    pass: "The media's sound that plays automatically lasts 3 seconds or less",
    fail: "The media plays sound automatically for more than 3 seconds",
    incomplete: "The media plays automatically: how long its sound lasts could not be measured",
  },
  matches: playsSoundByItself,
  evaluate: function autoplayAudioShortEvaluate(node: Element): boolean | undefined {
    const r = (globalThis as any).assayMediaReadings?.get(node);
    if (!r || r.skip) return undefined;
    return r.sounds <= 3;
  },
};

/** W3C ACT 4c31df (technique G170): sound that plays by itself has a visible, named control. */
export const autoplayAudioHasControl: AssayAxeRule = {
  id: "autoplay-audio-has-control",
  selector: "audio, video",
  // An audio element without controls is not rendered, and plays all the same.
  includeHidden: true,
  tags: ["cat.time-and-media", "best-practice", "assay"],
  impact: "moderate",
  actId: "4c31df",
  description: "Ensure audio that plays automatically has a control that pauses or mutes it",
  help: "Audio that plays automatically must have a visible, named control to pause or mute it",
  messages: {
    pass: "The media that plays automatically has a visible, named control that pauses or mutes it",
    fail: "The media plays sound automatically and has no visible, named control that pauses or mutes it",
    incomplete:
      "The media plays sound automatically: whether a control on the page pauses or mutes it could not be settled",
  },
  matches: playsSoundByItself,
  evaluate: function autoplayAudioHasControlEvaluate(node: Element): boolean | undefined {
    const r = (globalThis as any).assayMediaReadings?.get(node);
    if (!r || r.skip) return undefined;
    return r.controlled;
  },
};
