import { pass, type EmailValidation } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, plainPart } from "./_helpers";
import { quote } from "../shared/quote";

const CITY = String.raw`(?<city>\p{Lu}[\p{L}'’.-]*(?:[ -]\p{Lu}[\p{L}'’.-]*){0,3})`;
/** Postal codes with the city beside them: where each country writes it. */
const POSTCODES: Array<[string, RegExp]> = [
  // City, ST 12345(-6789)
  ["US ZIP code", new RegExp(String.raw`${CITY},?\s+[A-Z]{2},?\s+\d{5}(?:-\d{4})?\b`, "u")],
  // City, NS B3J 1A2
  ["Canadian postal code", new RegExp(String.raw`${CITY},?\s+(?:[A-Z]{2},?\s+)?[A-Z]\d[A-Z] ?\d[A-Z]\d\b`, "u")],
  // City NE46 1XD
  ["UK postcode", new RegExp(String.raw`${CITY},?\s+(?:GIR ?0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})\b`, "u")],
  // Dublin 2, D02 X285
  [
    "Irish Eircode",
    new RegExp(String.raw`${CITY}(?: \d{1,2})?,?\s+(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}\b`, "u"),
  ],
  // Melbourne VIC 3000
  ["Australian postcode", new RegExp(String.raw`${CITY},?\s+(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT),?\s+\d{4}\b`, "u")],
  // 1015 CV Amsterdam
  ["Dutch postcode", new RegExp(String.raw`\b\d{4} ?[A-Z]{2}\s+${CITY}`, "u")],
  // 00-950 Warszawa, 1000-001 Lisboa, 01310-100 São Paulo, 114 55 Stockholm
  ["European postcode", new RegExp(String.raw`\b(?:\d{2}-\d{3}|\d{4}-\d{3}|\d{5}-\d{3}|\d{3} \d{2})\s+${CITY}`, "u")],
  // 75003 Paris, D-10115 Berlin, 1010 Wien
  ["European postcode", new RegExp(String.raw`\b(?:[A-Z]{1,2}-)?\d{4,5}\s+${CITY}`, "u")],
  // Tokyo 100-0001, 〒100-0001
  ["Japanese postcode", /〒\s?\d{3}-\d{4}\b/u],
  // Berlin 10115, Austin, Texas 78701, Mumbai 400001, Singapore 018956
  ["postcode after the city", new RegExp(String.raw`${CITY},?\s+[-–]?\s*(?:\d{5}|\d{6})\b`, "u")],
];

const STREET_WORDS =
  "street|st|road|rd|avenue|ave|lane|ln|way|place|pl|drive|dr|boulevard|blvd|court|ct|square|sq|terrace|close|crescent|walk|row|parkway|pkwy|highway|hwy|hill|green|gardens|mews|quay|wharf|yard|works|park|estate|suite|unit|floor|building|house|strasse|straße|str|straat|gracht|plein|weg|laan|gasse|platz|allee|rue|avenida|calle|via|viale|piazza|corso|vej|gatan|gata|vegen|ulica|rua|carrer|plaza|chemin|boulevard|quai|place";
/** A street line: a house number with a street name (either order), a PO box, or a named street. */
const STREETS: RegExp[] = [
  // A price ("$15.77, Awesome Inc") is not a house number.
  /(?<![\p{Sc}.,:]\d*)\b\d{1,5}[A-Za-z]?(?:[-/]\d{1,5}[A-Za-z]?)?,?\s+\p{Lu}[\p{L}'’.-]+/u,
  /\p{Lu}[\p{L}'’.-]+\s+\d{1,5}[A-Za-z]?\b/u,
  /\bP\.?\s?O\.?\s?Box\s+\d+/i,
  new RegExp(String.raw`\b(?:${STREET_WORDS})\b`, "iu"),
];

/** English street types, which end a street name ("Awesome St", "Swuby Lane") and never a city's. */
const STREET_TYPE =
  /^(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|court|ct|terrace|crescent|parkway|pkwy|highway|hwy|way|close|place|pl|square|sq)\.?$/i;

/**
 * Whether the words read as the city hold a street: "1234 Awesome St" is a house number and a street, not a
 * postcode and a city, and in "1337 Swuby Lane Victoria" the city is "Victoria", not "Swuby Lane Victoria".
 * "St" before another word is Saint ("St. Gallen", "St Albans").
 */
function cityHoldsStreet(city: string): boolean {
  const words = city.split(/[ -]/);
  return words.some((w, i) => STREET_TYPE.test(w) && (i === words.length - 1 || !/^st\.?$/i.test(w)));
}

export interface PostalAddress {
  line: string;
  postcode: string;
  kind: string;
}

/**
 * Finds a postal address in text: a postcode with its city, and a street line before it, on one line or on up
 * to three short consecutive lines (an address block: "17 Market Place" / "Hexham" / "NE46 1XD").
 */
export function findPostalAddress(text: string): PostalAddress | null {
  const lines = text
    .split(/\r?\n|\u2028|<br\s*\/?>/i)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  for (let i = 0; i < lines.length; i++) {
    const candidates = [lines[i]!];
    if (i >= 1 && lines[i - 1]!.length <= 60) candidates.push(`${lines[i - 1]}, ${lines[i]}`);
    if (i >= 2 && lines[i - 1]!.length <= 60 && lines[i - 2]!.length <= 60)
      candidates.push(`${lines[i - 2]}, ${lines[i - 1]}, ${lines[i]}`);
    for (const line of candidates) {
      for (const postcode of POSTCODE_MATCHERS) {
        const found = addressAt(line, postcode);
        if (found) return found;
      }
    }
  }
  return null;
}

/** Each postcode pattern, and its sticky twin that matches only where it is put (compiled once, not per line). */
interface PostcodeMatcher {
  kind: string;
  pattern: RegExp;
  sticky: RegExp;
}
const POSTCODE_MATCHERS: PostcodeMatcher[] = POSTCODES.map(([kind, pattern]) => ({
  kind,
  pattern,
  sticky: new RegExp(pattern.source, `${pattern.flags}y`),
}));

/**
 * What makes the 4 digits after it a year: a copyright sign, or a month with or without its day ("December",
 * "Dec. 12,"). "Meir 1, 2000 Antwerpen" keeps its postcode.
 */
const DATED =
  /(?:©|\(c\)|copyright|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?)\s*$/i;

/**
 * The postcode match in the line with a street line before it. Every word start is tried, not only the leftmost
 * match: with the city's words unbounded to the left, the leftmost match of "1337 Swuby Lane Victoria, BC A1B 2C3"
 * reads "Swuby Lane Victoria" as the city and leaves no street before it.
 */
function addressAt(line: string, { kind, pattern, sticky }: PostcodeMatcher): PostalAddress | null {
  if (!pattern.test(line)) return null;
  for (let start = 0; start < line.length; start++) {
    if (start > 0 && /[\p{L}\p{N}]/u.test(line[start - 1]!)) continue;
    sticky.lastIndex = start;
    const m = sticky.exec(line);
    if (!m) continue;
    const before = line.slice(0, start);
    // "© 2025 Brand Ltd" and "December 2019 Regular Meetup" are years, not postcodes.
    if (DATED.test(before) && /^\d{4}\s/.test(m[0])) continue;
    if (m.groups?.city && cityHoldsStreet(m.groups.city)) continue;
    if (STREETS.some((s) => s.test(before))) return { line, postcode: m[0], kind };
  }
  return null;
}

export const emailPostalAddress: EmailValidation = {
  meta: htmlCheck({
    id: "email-postal-address",
    name: "Sender's postal address",
    category: "compliance",
    severity: "major",
    summary: "The message shows the sender's physical postal address, as CAN-SPAM requires of commercial email.",
    judgment:
      'Fails when neither the visible text of the HTML part nor the text/plain part holds a postal address: a street line (house number and street name in either order, a PO Box, or a named street) followed, on the same line or within an address block of up to three short lines, by a postal code with its city: a US ZIP code after the state, a UK, Irish, Canadian, Dutch or Australian postcode, a European postcode before the city (4-5 digits, 00-000, 0000-000, 000 00), or a 5-6 digit code after the city. A city is never a street: in "1234 Awesome St" the number is a house number, not a postcode, so a street line alone does not pass; a price such as $15.77 is not a house number; 4 digits after a copyright sign or a month ("© 2025", "December 2019 Regular Meetup", "Dec 12, 2019") are a year, not a postcode.',
    references: [
      {
        title: "FTC CAN-SPAM Act: A Compliance Guide for Business",
        url: "https://www.ftc.gov/business-guidance/resources/can-spam-act-compliance-guide-business",
      },
    ],
  }),
  evaluate(email) {
    const sources: Array<[string, string]> = [];
    if (hasHtmlPart(email)) {
      const got = htmlDomOf(email, "");
      if ("outcome" in got) return got.outcome;
      sources.push(["HTML part", got.dom.visibleText]);
    }
    const plain = plainPart(email);
    if (plain !== null) sources.push(["text/plain part", plain]);
    for (const [where, text] of sources) {
      const found = findPostalAddress(text);
      if (found)
        return pass(
          `The ${where} gives a postal address: ${quote(found.line, 140)} (${found.kind} ${JSON.stringify(found.postcode)}).`,
        );
    }
    const searched = sources.map(([w]) => w).join(" and ") || "message";
    return {
      verdict: "fail",
      reason:
        "Add the sender's physical postal address (street and number or PO Box, postcode and city) to the footer of the HTML and plain-text bodies (ask the sender for it; never invent one)",
      reasoning: `Searched the ${searched} for a street line together with a postal code and city; found none.`,
      findings: [{ message: `No postal address in the ${searched}` }],
    };
  },
};
