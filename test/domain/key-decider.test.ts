import { expect, test } from "bun:test";
import { decideMintKey, decideRevokeKey, streams, type MintedKey } from "../../src/domain/accounts";
import { refusal } from "../support/refusal";

/**
 * Key mint and revoke are decided in the domain: the events they record, and the refusals that record nothing.
 * Revoking a key that is not active has no HTTP route yet (session-only), so it is exercised here.
 */
const key: MintedKey = {
  keyId: "key_1",
  name: "ci",
  displayPrefix: "assay_abcd",
  secretHash: "0".repeat(64),
  scopes: ["jobs:read"],
};

test("minting for an organization that exists decides one KeyMinted on its account stream", () => {
  expect(decideMintKey("cus_a", key, true)).toEqual([
    {
      streamId: streams.account("cus_a"),
      expectedVersion: "any",
      events: [{ type: "KeyMinted", data: { customerId: "cus_a", ...key } }],
    },
  ]);
});

test("minting for an unknown organization is CUSTOMER_NOT_FOUND", () => {
  const e = refusal(() => decideMintKey("cus_nobody", key, false));
  expect(e.code).toBe("CUSTOMER_NOT_FOUND");
  expect(e.details).toEqual({ customerId: "cus_nobody" });
});

test("revoking an active key decides one KeyRevoked on its organization's account stream", () => {
  expect(decideRevokeKey("cus_a", "key_1", true)).toEqual([
    {
      streamId: streams.account("cus_a"),
      expectedVersion: "any",
      events: [{ type: "KeyRevoked", data: { keyId: "key_1", customerId: "cus_a" } }],
    },
  ]);
});

test("revoking a key that is not active (unknown, another organization's, or revoked already) is STORAGE_OBJECT_NOT_FOUND", () => {
  const e = refusal(() => decideRevokeKey("cus_a", "key_1", false));
  expect(e.code).toBe("STORAGE_OBJECT_NOT_FOUND");
  expect(e.status).toBe(404);
  expect(e.details).toEqual({ keyId: "key_1" });
});
