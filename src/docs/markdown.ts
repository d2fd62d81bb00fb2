/** The anchor GitHub gives a Markdown heading: lower case, punctuation (backticks included) dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .replace(/\s/g, "-");
