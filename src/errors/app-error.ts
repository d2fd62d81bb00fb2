import { errorEntry, retryableCodes, type ErrorCode } from "./catalog";

/** A catalogued refusal. Every surface (HTTP, MCP, CLI) renders it from the same fields. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly developerMessage?: string,
    /** Overrides the catalog default for 5xx codes whose retryability depends on the case. */
    readonly retryable?: boolean,
  ) {
    super(message);
  }

  get status(): number {
    return errorEntry(this.code).status;
  }

  toBody(requestId: string): ErrorBody {
    const entry = errorEntry(this.code);
    const body: ErrorBody = {
      code: this.code,
      title: entry.title,
      message: this.message,
      developerMessage: this.developerMessage ?? entry.guidance,
      requestId,
    };
    if (this.details) body.details = this.details;
    if (entry.status >= 500) body.retryable = this.retryable ?? retryableCodes.has(this.code);
    return body;
  }
}

export interface ErrorBody {
  code: string;
  title: string;
  message: string;
  developerMessage: string;
  details?: Record<string, unknown>;
  requestId: string;
  retryable?: boolean;
}
