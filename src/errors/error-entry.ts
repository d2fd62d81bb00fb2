/** A row of the error catalog (src/errors/catalog.ts), as the tables in src/errors/codes/ write it. */
export interface ErrorEntry {
  code: string;
  status: number;
  title: string;
  /** What the caller should do about it. */
  guidance: string;
  /** True for codes this service added where the spec had none for a case. */
  addedBySpecGap?: boolean;
}
