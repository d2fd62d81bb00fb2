import { afterAll, beforeAll, expect, test } from "bun:test";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * The keyboard gatherer (src/capture/gatherers/keyboard.ts) on real Chromium through the API: Tab driven through
 * the page, Escape and the keys the page announces tried on a trap (no-keyboard-trap), and each stop screenshotted
 * focused and blurred (focus-visible).
 */
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

const TRAP = `<!doctype html><html lang="en"><head><title>Trap</title></head><body>
<p>{{INSTRUCTIONS}}</p>
<a id="first" href="#a">First</a>
<button id="b1" onblur="if (trapped) setTimeout(() => document.getElementById('b2').focus(), 10)">One</button>
<button id="b2" onblur="if (trapped) setTimeout(() => document.getElementById('b1').focus(), 10)"
  onkeydown="if (event.ctrlKey && event.key === 'm') { trapped = false; document.getElementById('last').focus(); }">Two</button>
<a id="last" href="#b">Last</a>
<script>var trapped = true;</script>
</body></html>`;

async function run(html: string, id: string) {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, [{ id, parameters: {} }]) });
  expect(res.status).toBe(200);
  return res.body.results[0] as {
    verdict: string;
    reasoning: string;
    findings: Array<{ selector?: string; message: string; measured?: Record<string, unknown> }>;
  };
}

test("a trap whose way out the page announces passes once the announced key lets focus out; the same trap unannounced fails", async () => {
  const announced = await run(
    TRAP.replace("{{INSTRUCTIONS}}", "Press Ctrl+M to leave the buttons."),
    "no-keyboard-trap",
  );
  expect(announced.verdict).toBe("pass");
  expect(announced.reasoning).toContain("Control+m");
  const silent = await run(TRAP.replace("{{INSTRUCTIONS}}", "Two buttons."), "no-keyboard-trap");
  expect(silent.verdict).toBe("fail");
  expect(silent.findings.map((f) => f.selector)).toEqual(["#b2"]);
});

test("focus shown only by an indicator elsewhere on the page counts; a link whose outline is removed does not", async () => {
  const r = await run(
    `<!doctype html><html lang="en"><head><title>Focus</title><style>a { outline: none; } #marker { visibility: hidden; } p:focus-within #marker { visibility: visible; }</style></head>
<body><p><span id="marker">▶</span> <a id="marked" href="#a">Marked</a></p><a id="bare" href="#b">Bare</a></body></html>`,
    "focus-visible",
  );
  expect(r.verdict).toBe("fail");
  expect(r.findings.map((f) => f.selector)).toEqual(["#bare"]);
});

test("a date field, whose day, month and year each take Tab while it keeps focus, is no trap", async () => {
  const r = await run(
    `<!doctype html><html lang="en"><head><title>Booking</title></head><body><a href="#a">Rooms</a>
<label>Arrival <input id="arrival" type="date" /></label><a href="#b">Book</a></body></html>`,
    "no-keyboard-trap",
  );
  expect({ verdict: r.verdict, reasoning: r.reasoning }).toMatchObject({ verdict: "pass" });
  expect(r.reasoning).toContain("Tab took focus out of the page");
});

test("a header that hides itself on the way down (Clean Blog's) is measured at the top, where the reader meets it: its focused link shows", async () => {
  const r = await run(
    `<!doctype html><html lang="en"><head><title>Blog</title><style>
#nav { position: absolute; top: 0; width: 100%; background: #333; }
#nav.is-fixed { position: fixed; top: -83px; }
#nav a { color: #ccc; outline: none; } #nav a:focus { color: #fff; text-decoration: underline; }
main { margin-top: 120px; height: 3000px; }
</style></head><body>
<nav id="nav"><a id="home" href="#home">Home</a></nav>
<main><h1>A post</h1></main><footer><a id="more" href="#more">More posts</a></footer>
<script>
let last = 0;
addEventListener("scroll", () => {
  const top = scrollY;
  if (top < last) document.getElementById("nav").classList.remove("is-fixed");
  else if (top > 100) document.getElementById("nav").classList.add("is-fixed");
  last = top;
});
</script></body></html>`,
    "focus-visible",
  );
  expect(r.verdict).toBe("pass");
});

test("on a page that scrolls smoothly, a stop far down whose focus shows nothing fails: the glide to it is no indicator", async () => {
  const r = await run(
    `<!doctype html><html lang="en"><head><title>Smooth</title><style>
html { scroll-behavior: smooth; } main { height: 4000px; } #send { outline: none; box-shadow: none; }
</style></head><body><a id="top" href="#top">Top</a><main><h1>Form</h1></main>
<button id="send">Send</button></body></html>`,
    "focus-visible",
  );
  expect(r.verdict).toBe("fail");
  expect(r.findings.map((f) => f.selector)).toEqual(["#send"]);
});

test("the page goes back to how the walk found it: a fixed header read over the text the walk scrolled to is no overlap for layout-not-broken judged in the same job", async () => {
  const html = `<!doctype html><html lang="en"><head><title>Skip</title><style>
.skip { position: absolute; left: -9999px; } .skip:focus { left: 0; top: 0; background: #fff; }
header { position: fixed; top: 0; left: 0; background: #fff; }
</style></head><body><a class="skip" href="#main">Skip to content</a><header><a href="#home">Home page</a></header>
<main id="main"><h1>Welcome</h1>${"<p>Our news, in full sentences, one paragraph after another.</p>".repeat(80)}</main>
<footer><a href="#end">End</a></footer></body></html>`;
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [
      { id: "focus-visible", parameters: {} },
      { id: "layout-not-broken", parameters: {} },
    ]),
  });
  expect(res.status).toBe(200);
  const verdicts = Object.fromEntries(
    (res.body.results as Array<{ validationId: string; verdict: string }>).map((r) => [r.validationId, r.verdict]),
  );
  expect(verdicts["layout-not-broken"]).toBe("pass");
});

test("the page is given back with transitions stopped until it has answered the scroll to the top: a scroll spy's highlight taken off a nav link does not fade out while the sizes are read, and the link is not read as a call to action the small sizes hide (cta-visible in the same job)", async () => {
  const sections = ["work", "about", "contact"]
    .map(
      (id) =>
        `<section id="${id}"><h2>${id}</h2>${"<p>Words about us, one sentence after another.</p>".repeat(30)}<a href="#more-${id}">More</a></section>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><title>Spy</title><style>
html { scroll-behavior: smooth; }
nav { position: fixed; top: 0; left: 0; right: 0; background: #2c3e50; }
nav a { color: #fff; padding: 12px 16px; display: inline-block; transition: background-color 0.6s; }
nav a.active { background-color: #1abc9c; }
@media (max-width: 767px) { nav .links { display: none; } }
</style></head><body><nav><a href="#home">Home</a><span class="links"><a href="#work">Work</a><a href="#about">About</a><a href="#contact">Contact</a></span></nav>
<main><h1 style="margin-top: 80px">Portfolio</h1>${sections}</main>
<script>
// A scroll spy, as Bootstrap's: the link of the last section whose top has passed the viewport's middle.
addEventListener("scroll", () => {
  let current = null;
  for (const s of document.querySelectorAll("section")) if (s.getBoundingClientRect().top < innerHeight / 2) current = s.id;
  for (const a of document.querySelectorAll("nav .links a")) a.classList.toggle("active", a.getAttribute("href") === "#" + current);
});
</script></body></html>`;
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [
      { id: "no-keyboard-trap", parameters: {} },
      { id: "cta-visible", parameters: {} },
    ]),
  });
  expect(res.status).toBe(200);
  const verdicts = Object.fromEntries(
    (res.body.results as Array<{ validationId: string; verdict: string }>).map((r) => [r.validationId, r.verdict]),
  );
  expect(verdicts).toEqual({ "no-keyboard-trap": "pass", "cta-visible": "pass" });
});

const HELPED = `<!doctype html><html lang="en"><head><title>Helped</title></head><body>
<a id="first" href="#a">First</a>
<div onkeydown="if (event.ctrlKey && event.key === 'm') { trapped = false; document.getElementById('last').focus(); }">
<button id="b1" onblur="if (trapped) setTimeout(() => document.getElementById('help').focus(), 10)">One</button>
{{HELP}}
<div id="told"></div>
<button id="b2" onblur="if (trapped) setTimeout(() => document.getElementById('b1').focus(), 10)">Two</button>
</div>
<a id="last" href="#b">Last</a>
<script>var trapped = true; function tell() { document.getElementById("told").textContent = "{{TOLD}}"; }</script>
</body></html>`;

const helped = (help: string, told: string) => HELPED.replace("{{HELP}}", help).replace("{{TOLD}}", told);

test("a trap whose help control, followed with Enter, tells of the key that leaves it passes; a told key that does not leave it fails", async () => {
  const button = `<button id="help" type="button" onclick="tell()">How do I move on?</button>`;
  const told = await run(helped(button, "Press Ctrl+M to go on."), "no-keyboard-trap");
  expect(told.verdict).toBe("pass");
  expect(told.reasoning).toContain('Control+m, the key the help behind "How do I move on?" tells of');
  expect(told.findings.map((f) => f.selector)).toEqual(["#help"]);
  const wrong = await run(helped(button, "Press Ctrl+Q to go on."), "no-keyboard-trap");
  expect(wrong.verdict).toBe("fail");
  expect(wrong.findings[0]!.message).toContain("the keys the help behind");
});

test("help behind a link to another page is not followed (the page would go): a person judges", async () => {
  const r = await run(
    helped(`<a id="help" href="/help.html">Help with these buttons</a>`, "Press Ctrl+M to go on."),
    "no-keyboard-trap",
  );
  expect(r.verdict).toBe("pass");
  expect(r.findings.map((f) => [f.selector, f.message.startsWith("needs review")])).toEqual([["#help", true]]);
});

test("a trap Tab cannot leave that Shift+Tab leaves backwards fails, saying so; a blur handler that takes focus back once Tab left the page sets no trap", async () => {
  const backwards = await run(
    `<!doctype html><html lang="en"><head><title>Pair</title></head><body>
<button id="a" onblur="setTimeout(() => document.getElementById('b').focus(), 10)">A</button>
<button id="b" onblur="setTimeout(() => document.getElementById('a').focus(), 10)">B</button>
<button id="c">C</button></body></html>`,
    "no-keyboard-trap",
  );
  expect(backwards.verdict).toBe("fail");
  expect(backwards.findings[0]!.message).toContain("Shift+Tab leaves it backwards");
  expect(backwards.findings[0]!.measured?.leftBy).toBe("Shift+Tab");
  // Focus in the browser's controls stays there, whatever the page focuses then (ACT 80af7b, Failed Example 1's note).
  const last = await run(
    `<!doctype html><html lang="en"><head><title>Last</title></head><body><a href="#a">Start</a>
<button onblur="setTimeout(() => this.focus(), 10)">Stay</button></body></html>`,
    "no-keyboard-trap",
  );
  expect(last.verdict).toBe("pass");
  expect(last.reasoning).toContain("Tab took focus out of the page");
});
