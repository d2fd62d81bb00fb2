import { gathererTable } from "./run";
import { vitalsGatherer } from "./vitals";
import { axeGatherer } from "./axe";
import { domGatherer } from "./dom";
import { layoutGatherer } from "./layout";
import { imagesGatherer } from "./images";
import { screenshotGatherer } from "./screenshot";

/**
 * Every artifact kind a webpage is captured for: one module each in this folder, one line here. A capture gathers
 * the kinds its checks' `needs` name, with what they depend on, in dependency order; where the dependencies leave
 * a choice, in this table's order.
 */
export const WEB_GATHERERS = gathererTable([
  vitalsGatherer,
  axeGatherer,
  domGatherer,
  layoutGatherer,
  imagesGatherer,
  screenshotGatherer,
]);
