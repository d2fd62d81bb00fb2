import { decodeImageSources } from "../image-evidence";
import { PAGE_HELPERS_KEY } from "../page-helpers";
import { IMAGES_HELPERS, snapshotImages } from "../page-functions/images";
import { defineWebGatherer } from "./web-page";

/**
 * "images": the images painted at each size (page-functions/images.ts), and, when the checks name reference images
 * (ParameterSpec.referenceImage, e.g. logo-usage's logoUrl), after every size the references and the page's image
 * sources decoded in a blank page (image-evidence.ts): natural size and content hash, so a check can find a
 * picture by content. The page's image responses are kept for that as they arrive.
 */
export const imagesGatherer = defineWebGatherer({
  kind: "images",
  sizes: "each",
  dependsOn: [],
  helpers: [IMAGES_HELPERS],
  prepare({ network, referenceImages }) {
    if (referenceImages.length) network.keepImageBodies();
  },
  gather: async ({ world }) => ({ images: await world.run(snapshotImages, PAGE_HELPERS_KEY) }),
  finish: ({ context, guard, network, referenceImages }, { images }) =>
    decodeImageSources({
      context,
      guard,
      signal: network.signal,
      referenceImages,
      images: images ?? {},
      kept: network.keptImages,
    }),
});
