import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { AppError } from "../errors/app-error";
import type { WindowCounter } from "../store/coordinator";

/**
 * A windowed count per key: in this process's memory (rate-limiter-flexible), or, where several nodes share a
 * PostgreSQL log, in that database (`shared.counter`, under the limit's name), so every node counts the same
 * attempts. `spend` counts one for the key, or throws the refusal built from how long until the key may try again;
 * a refused attempt does not count.
 */
export class WindowedLimit {
  private readonly limiter: RateLimiterMemory;

  constructor(
    readonly points: number,
    readonly windowSeconds: number,
    private readonly shared?: { name: string; counter?: WindowCounter },
  ) {
    this.limiter = new RateLimiterMemory({ points, duration: windowSeconds });
  }

  async spend(key: string, refusal: (retryAfterSeconds: number) => AppError): Promise<void> {
    const counter = this.shared?.counter;
    if (counter) {
      const { hits, msBeforeReset } = await counter.hit(this.shared!.name, key, this.windowSeconds);
      if (hits <= this.points) return;
      await this.giveBack(key);
      throw refusal(Math.max(1, Math.ceil(msBeforeReset / 1000)));
    }
    try {
      await this.limiter.consume(key);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      await this.giveBack(key);
      throw refusal(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    }
  }

  /**
   * Throws the refusal when the key has nothing left in its window, counting nothing: for a request that only
   * leads to a counted attempt later (a sign-in link whose use would open an organization).
   */
  async check(key: string, refusal: (retryAfterSeconds: number) => AppError): Promise<void> {
    const counter = this.shared?.counter;
    if (counter) {
      const { hits, msBeforeReset } = await counter.peek(this.shared!.name, key);
      if (hits >= this.points) throw refusal(Math.max(1, Math.ceil(msBeforeReset / 1000)));
      return;
    }
    const spent = await this.limiter.get(key);
    if (spent && spent.consumedPoints >= this.points) throw refusal(Math.max(1, Math.ceil(spent.msBeforeNext / 1000)));
  }

  /** Returns one spent point (an attempt another limit then refused). */
  async giveBack(key: string): Promise<void> {
    if (this.shared?.counter) await this.shared.counter.unhit(this.shared.name, key);
    else await this.limiter.reward(key, 1);
  }
}

/**
 * The unit a per-address limit counts: an IPv4 address (also when IPv4-mapped), or an IPv6 address's /64 prefix,
 * since one IPv6 host commonly holds a whole /64.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
