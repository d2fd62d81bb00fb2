import { Type } from "@sinclair/typebox";

/** Request parts several operations take: the customerId field (and a query of it alone), a same-origin path, a capture's key. */

export const customerId = () =>
  Type.Optional(
    Type.String({
      description: "Your organization's customerId; defaults to the key's own. Another organization's is refused.",
    }),
  );

/** A path on this site (`/`, `/keys?x=1`), never another origin (`//host`, `/\\host`, `https://…`). */
export const sameOriginPath = (description: string) =>
  Type.Optional(Type.String({ pattern: "^/(?![/\\\\])[^\\s]*$", maxLength: 2000, description }));

export const CustomerQuery = Type.Object({ customerId: customerId() }, { additionalProperties: false });

export const CaptureKeyParams = Type.Object({ key: Type.String({ description: "The capture key." }) });
