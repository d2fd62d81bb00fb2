/** mailauth's own alignment helper (not in its typings): the organizational-domain match DMARC uses, with the same public-suffix options. */
declare module "mailauth/lib/tools.js" {
  export function getAlignment(
    fromDomain: string,
    domainList: Array<string | { domain: string }>,
    strict?: boolean,
  ): { domain: string } | false;
}
