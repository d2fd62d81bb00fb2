import type { EmailClient } from "../capture/vocabulary";

/** What one mail-client render costs: a visual email check is priced by its renders (src/domain/pricing.ts). */
export const CREDITS_PER_RENDER = 1;
/** The surcharge per render in an `extraCredits` client. */
export const EXTRA_CREDITS_PER_RENDER = 1;

export const renderPrice = (c: EmailClient) => CREDITS_PER_RENDER + (c.extraCredits ? EXTRA_CREDITS_PER_RENDER : 0);

/** A webpage check's render in an engine beyond Chromium, at one size: priced as a render in an extra-credit client. */
export const EXTRA_ENGINE_CREDITS_PER_RENDER = CREDITS_PER_RENDER + EXTRA_CREDITS_PER_RENDER;
