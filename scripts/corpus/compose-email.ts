/**
 * An email case as it would reach an inbox: its template built by the pinned npm package it was written for
 * (MJML, Inky, Handlebars with sample data), then composed with realistic headers by nodemailer's MailComposer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import mjml2html from "mjml";
import { Inky } from "inky";
import Handlebars from "handlebars";
import MailComposer from "nodemailer/lib/mail-composer";
import type { EmailCase } from "./cases";

/** The HTML the template builds to; a build that reports errors throws them, naming the case. */
export async function buildEmailHtml(c: EmailCase): Promise<string> {
  const source = readFileSync(join(c.dir, c.template), "utf8");
  switch (c.build) {
    case "none":
      return source;
    case "mjml": {
      // MJML 5 skips <mj-include> unless told otherwise; a case's partials and stylesheets live in its own folder.
      const built = await mjml2html(source, {
        validationLevel: "soft",
        filePath: join(c.dir, c.template),
        ignoreIncludes: false,
        includePath: c.dir,
      });
      if (built.errors.length)
        throw new Error(`${c.id}: mjml: ${built.errors.map((e) => e.formattedMessage).join("; ")}`);
      return built.html;
    }
    case "inky":
      return new Inky({}).releaseTheKraken(source);
    case "handlebars": {
      if (!c.data) throw new Error(`${c.id}: a handlebars case names its sample data ("data")`);
      const data = JSON.parse(readFileSync(join(c.dir, c.data), "utf8"));
      return Handlebars.compile(source, { strict: true })(data);
    }
  }
}

/** The raw message (RFC 5322) for the case, with the envelope sender its Return-Path would name. */
export async function composeEmailCase(c: EmailCase): Promise<{ raw: Buffer; envelopeFrom: string }> {
  const html = await buildEmailHtml(c);
  const d = c.delivery;
  const fromAddress = /<([^>]+)>/.exec(d.from)?.[1] ?? d.from;
  const domain = fromAddress.split("@")[1] ?? "example.com";
  const headers: Record<string, string> = {};
  if (d.listUnsubscribe) headers["List-Unsubscribe"] = d.listUnsubscribe;
  if (d.listUnsubscribe && d.oneClick) headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  if (d.stream === "bulk") headers.Precedence = "bulk";
  const mail = new MailComposer({
    from: d.from,
    to: "recipient@example.net",
    replyTo: d.replyTo,
    subject: d.subject,
    date: new Date("2026-11-02T09:30:00Z"),
    messageId: `<${c.id}.corpus@${domain}>`,
    html,
    text: d.text ? readFileSync(join(c.dir, d.text), "utf8") : undefined,
    headers,
  });
  const raw: Buffer = await new Promise((resolve, reject) =>
    mail.compile().build((err, message) => (err ? reject(err) : resolve(message))),
  );
  return { raw, envelopeFrom: `bounces@${domain}` };
}
