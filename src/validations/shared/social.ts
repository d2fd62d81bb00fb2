import { hostMatches } from "./patterns";

/** Networks whose profile and share links are "follow us" icons, not a page's or a message's call to action. */
const SOCIAL_HOSTS = [
  "facebook.com",
  "fb.com",
  "twitter.com",
  "x.com",
  "instagram.com",
  "linkedin.com",
  "youtube.com",
  "youtu.be",
  "pinterest.com",
  "tiktok.com",
  "threads.net",
  "whatsapp.com",
  "wa.me",
  "t.me",
  "reddit.com",
  "snapchat.com",
  "tumblr.com",
  "vimeo.com",
  "bsky.app",
  "mastodon.social",
  "discord.gg",
];
const SOCIAL_NAMES =
  /^(?:(?:follow|find|like|join) us on |share on )?(facebook|twitter|x|instagram|linkedin|youtube|pinterest|tiktok|threads|whatsapp|telegram|reddit|snapchat|tumblr|vimeo|bluesky|mastodon|discord)(?: icon| logo)?$/i;

/** A link to a social network's site, or one whose text (or image alt) is only a network's name ("Facebook", "Follow us on X"). */
export function isSocialLink(href: string, text: string): boolean {
  if (SOCIAL_NAMES.test(text.trim())) return true;
  try {
    const host = new URL(href).hostname.toLowerCase().replace(/^www\./, "");
    return SOCIAL_HOSTS.some((h) => hostMatches(host, h));
  } catch {
    return false;
  }
}
