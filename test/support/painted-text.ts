/**
 * Images of text for the OCR tests: SVG pictures whose words are painted (Chromium rasterizes them as it would any
 * image; nothing of their text is in the page's DOM), as data: URLs or raw bytes.
 */
export function svgOfText(
  lines: string[],
  { width = 640, height = 70 * lines.length + 30, background = "#1a56db", colour = "#ffffff", size = 40 } = {},
): string {
  const text = lines
    .map(
      (line, i) =>
        `<text x="24" y="${60 + i * 70}" font-family="Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="${size}" fill="${colour}">${line}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${text}</svg>`;
}

export const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

/** A message whose HTML part shows pictures from its own parts (multipart/related, `cid:<id>` in the HTML). */
export function relatedMessage(subject: string, html: string, parts: Array<{ cid: string; svg: string }>): Buffer {
  const boundary = "assay-related-boundary";
  const lines = [
    "From: Trailhead <news@trailhead.example>",
    "To: reader@example.com",
    `Subject: ${subject}`,
    "Date: Fri, 27 Nov 2026 12:00:00 +0000",
    "Message-ID: <ocr-test@trailhead.example>",
    "MIME-Version: 1.0",
    `Content-Type: multipart/related; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(html).toString("base64"),
    ...parts.flatMap((p) => [
      `--${boundary}`,
      "Content-Type: image/svg+xml",
      "Content-Transfer-Encoding: base64",
      `Content-ID: <${p.cid}>`,
      "Content-Disposition: inline",
      "",
      Buffer.from(p.svg).toString("base64"),
    ]),
    `--${boundary}--`,
    "",
  ];
  return Buffer.from(lines.join("\r\n"));
}
