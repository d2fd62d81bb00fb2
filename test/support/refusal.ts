import { AppError } from "../../src/errors/app-error";

/** The AppError a decider refuses with; fails the test when it decides events instead. */
export function refusal(decide: () => unknown): AppError {
  try {
    decide();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal, got events");
}
