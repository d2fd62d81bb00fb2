import { Type } from "@sinclair/typebox";
import { Scope } from "../../events/account";
import { literals, Nullable, Obj, Str } from "./schema-kit";

/** The organization and its keys, as several account operations answer them. */

export const Organization = Obj({
  customerId: Str(),
  orgCode: Str(),
  email: Str(),
  plan: Str("The plan code, as the billing provider resolves it."),
  planName: Str(),
  monthlyCredits: Type.Integer({ description: "The credits a month the plan grants." }),
  createdAt: Str(),
});

export const keyFields = {
  keyId: Str(),
  name: Str(),
  displayPrefix: Str(),
  scopes: Type.Array(Scope),
  createdAt: Str(),
  rotatedAt: Nullable(Str()),
  revokedAt: Nullable(Str()),
  status: literals(["active", "revoked"] as const),
};

export const RevokedKey = Obj({ keyId: Str(), revokedAt: Str() });

export const KeyRef = Type.Object(
  { keyId: Type.String({ minLength: 1, description: "The key's id (key_…)." }) },
  { additionalProperties: false },
);
