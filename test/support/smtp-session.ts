import { connect } from "node:net";

/**
 * Speaks SMTP by hand, for what nodemailer will not send (raw garbage, pipelined refusals, a thousand recipients):
 * writes `lines` one by one as replies come, and returns every reply line once the server closes.
 */
export function smtpSession(port: number, lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const replies: string[] = [];
    let buffer = "";
    let step = 0;
    socket.on("data", (d) => {
      buffer += d.toString();
      const complete = buffer.split("\r\n").filter((l) => /^\d{3} /.test(l));
      if (complete.length > replies.length) {
        replies.push(...complete.slice(replies.length));
        if (step < lines.length) socket.write(`${lines[step++]}\r\n`);
        else socket.end();
      }
    });
    socket.on("close", () => resolve(replies));
    socket.on("error", reject);
  });
}

/** The marketing message the email tests send (a subject and an unsubscribe header that pass both functional checks). */
export function trailheadMessage(to: string) {
  return {
    from: '"Trailhead" <offers@trailhead.example>',
    to,
    subject: "Spring sale: 25% off walking boots",
    text: "Hello",
    html: "<p>Hello</p>",
    headers: { "List-Unsubscribe": "<https://trailhead.example/u?id=1>" },
  };
}
