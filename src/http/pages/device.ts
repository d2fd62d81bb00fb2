import { Elysia } from "elysia";
import { html } from "@elysiajs/html";
import { AppError } from "../../errors/app-error";
import { SCOPE_DESCRIPTIONS } from "../../domain/accounts";
import { formatUserCode, normaliseUserCode } from "../../domain/device";
import { sessionMeta } from "../../operations/authorize";
import { sessionSecretOf } from "../../operations/session-cookie";
import type { Services } from "../../services/facade";
import type { SessionPrincipal } from "../../services/sessions";
import { requestIdOf } from "../request";
import { sessionOrNull } from "./page-kit";
import { ApproveView, DoneView, EnterCodeView, SignInView } from "./device-views";

/**
 * The /device page (RFC 8628's verification URI): a signed-in person enters or confirms the code a device
 * shows, sees which organization and which scopes it asks for, and approves or denies with a plain form
 * carrying the session's CSRF token. Works without JavaScript. Signed out, it offers the email sign-in link,
 * which brings the person back here.
 */

/** A typed code as the device shows it (XXXX-XXXX), when it has that shape; nothing is looked up before sign-in. */
function shownCode(userCode: string | undefined): { userCode?: string } {
  const code = userCode ? normaliseUserCode(userCode) : "";
  return code.length === 8 ? { userCode: formatUserCode(code) } : {};
}

const pagePath = (userCode?: string) => (userCode ? `/device?user_code=${encodeURIComponent(userCode)}` : "/device");

export function devicePage(services: Services) {
  const origin = services.config.publicBaseUrl;
  /** The page for a session and a typed code: the request it names to approve, else the form to type one. */
  function signedInView(session: SessionPrincipal, userCode: string | undefined, message?: string) {
    const request = userCode ? services.device.pending(userCode) : null;
    if (!request) {
      const unknown =
        userCode && !message
          ? "No pending request has this code; it may have expired or been answered. Check the code on your device."
          : message;
      return EnterCodeView({ origin, email: session.email, userCode, message: unknown });
    }
    return ApproveView({
      origin,
      email: session.email,
      csrfToken: session.csrfToken,
      userCode: formatUserCode(request.userCode),
      clientId: request.clientId,
      scopes: request.scopes.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
      organizations: services.sessions.describe(session).organizations,
      customerId: session.customerId,
      message,
    });
  }

  return (
    new Elysia()
      // Rendered explicitly with `html(...)`: the plugin's detection of HTML in any route's answer stays off.
      .use(html({ autoDetect: false, contentType: "text/html; charset=utf-8" }))
      .get("/device", ({ request, query, set, html }) => {
        set.headers["cache-control"] = "no-store";
        const userCode =
          typeof query.user_code === "string" && query.user_code.trim() ? query.user_code.trim() : undefined;
        const session = sessionOrNull(services, request);
        return html(
          session
            ? signedInView(session, userCode)
            : SignInView({ origin, next: pagePath(userCode), oidc: !!services.config.oidc, ...shownCode(userCode) }),
        );
      })
      .post("/device", async ({ request, body, set, html }) => {
        set.headers["cache-control"] = "no-store";
        const form = new URLSearchParams(typeof body === "string" ? body : "");
        const userCode = form.get("user_code")?.trim() || undefined;
        const decision = form.get("decision");
        let session: SessionPrincipal;
        try {
          session = services.sessions.authenticate(sessionSecretOf(request.headers.get("cookie")), {
            token: form.get("_csrf"),
          });
        } catch (e) {
          if (!(e instanceof AppError) || (e.code !== "AUTH_REQUIRED" && e.code !== "CSRF_TOKEN_INVALID")) throw e;
          set.status = e.status;
          return html(
            SignInView({
              origin,
              next: pagePath(userCode),
              oidc: !!services.config.oidc,
              ...shownCode(userCode),
              message: `${e.message} Nothing was approved.`,
            }),
          );
        }
        const meta = sessionMeta(session.personId, "dashboard", requestIdOf(request));
        try {
          if (decision === "approve")
            await services.device.approve(session, userCode ?? "", form.get("customerId") ?? "", meta);
          else if (decision === "deny") await services.device.deny(session, userCode ?? "", meta);
          else
            throw new AppError("INVALID_ENUM_VALUE", "Choose Approve or Deny.", {
              field: "decision",
              allowed: ["approve", "deny"],
            });
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          set.status = e.status;
          return html(signedInView(session, userCode, e.message));
        }
        return html(DoneView({ origin, approved: decision === "approve" }));
      })
  );
}
