/** A host is the domain itself or one of its subdomains. */
export const hostMatches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
