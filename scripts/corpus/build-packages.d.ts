// The two corpus build packages ship no types; only what compose-email.ts calls is declared.
declare module "mjml" {
  interface MjmlResult {
    html: string;
    errors: Array<{ formattedMessage: string }>;
  }
  export default function mjml2html(
    source: string,
    options?: {
      validationLevel?: "strict" | "soft" | "skip";
      filePath?: string;
      ignoreIncludes?: boolean;
      includePath?: string | string[];
    },
  ): Promise<MjmlResult>;
}
declare module "inky" {
  export class Inky {
    constructor(options: object);
    releaseTheKraken(html: string): string;
  }
}
