import { PAGE_HELPERS_KEY } from "../page-helpers";
import { LAYOUT_HELPERS, snapshotLayout } from "../page-functions/layout";
import { defineWebGatherer } from "./web-page";

/**
 * "layout": geometry at each size (page-functions/layout.ts): overlapping text, call-to-action candidates, tap
 * targets, what sticks out sideways, broken images; for the visual checks and the inspector judge.
 */
export const layoutGatherer = defineWebGatherer({
  kind: "layout",
  sizes: "each",
  dependsOn: [],
  helpers: [LAYOUT_HELPERS],
  gather: async ({ world }) => ({ layout: await world.run(snapshotLayout, PAGE_HELPERS_KEY) }),
});
