/** Text as a finding or reason quotes it: in double quotes (JSON's escapes), cut to `max` characters with an ellipsis. */
export function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
