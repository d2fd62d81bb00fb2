import { PAGE_HELPERS_KEY } from "../page-helpers";
import { DOM_HELPERS, snapshotDom } from "../page-functions/dom";
import { defineWebGatherer } from "./web-page";

/** "dom": the DOM as the browser built it, at each size (page-functions/dom.ts): everything the DOM checks read. */
export const domGatherer = defineWebGatherer({
  kind: "dom",
  sizes: "each",
  dependsOn: [],
  helpers: [DOM_HELPERS],
  gather: async ({ world }) => ({ dom: await world.run(snapshotDom, PAGE_HELPERS_KEY) }),
});
