/** Latin filler text, in pages and in messages alike. */
export const LOREM = /\blorem ipsum\b|\bdolor sit amet\b|\bconsectetur adipiscing\b/i;

/** A host is the domain itself or one of its subdomains. */
export const hostMatches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
