import { gathererTable } from "./run";
import { vitalsGatherer } from "./vitals";
import { axeGatherer } from "./axe";
import { contrastPixelsGatherer } from "./contrast-pixels";
import { domGatherer } from "./dom";
import { layoutGatherer } from "./layout";
import { imagesGatherer } from "./images";
import { screenshotGatherer } from "./screenshot";
import { paletteGatherer } from "./palette";
import { maskBoxesGatherer } from "./mask-boxes";
import { imageTextGatherer } from "./image-text";
import { keyboardGatherer } from "./keyboard";

/**
 * What a webpage can be captured for: one gatherer per artifact kind, each a module of this folder with its line
 * here. A capture gathers the kinds its checks' `needs` name, with those they depend on, in dependency order
 * (run.ts); where the dependencies leave a choice, in this table's order.
 */
export const WEB_GATHERERS = gathererTable([
  vitalsGatherer,
  axeGatherer,
  contrastPixelsGatherer,
  domGatherer,
  layoutGatherer,
  imagesGatherer,
  screenshotGatherer,
  paletteGatherer,
  maskBoxesGatherer,
  imageTextGatherer,
  // Last: it moves focus and presses Escape, which may close what the page had open.
  keyboardGatherer,
]);
