/**
 * A self-contained product landing page (no network requests: styles inline, images as SVG data
 * URIs), about 1,300 px tall at 1280 px wide, clean against every check of `web-essentials`.
 */

const svg = (body: string, w: number, h: number) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`)}`;

const heroImage = svg(
  `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs>
   <rect width="520" height="360" rx="18" fill="url(#g)"/>
   <rect x="36" y="40" width="448" height="52" rx="8" fill="#ffffff" opacity=".92"/>
   <rect x="36" y="112" width="210" height="200" rx="8" fill="#ffffff" opacity=".8"/>
   <rect x="274" y="112" width="210" height="92" rx="8" fill="#ffffff" opacity=".8"/>
   <rect x="274" y="220" width="210" height="92" rx="8" fill="#ffffff" opacity=".8"/>
   <circle cx="70" cy="66" r="12" fill="#16a34a"/><circle cx="104" cy="66" r="12" fill="#16a34a"/><circle cx="138" cy="66" r="12" fill="#dc2626"/>`,
  520,
  360,
);

const icon = (color: string, path: string) =>
  svg(
    `<rect width="48" height="48" rx="12" fill="${color}"/><path d="${path}" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/>`,
    48,
    48,
  );

const logo = svg(
  `<circle cx="16" cy="16" r="14" fill="#0f766e"/><path d="M9 17l5 5 9-11" stroke="#fff" stroke-width="3" fill="none"/>`,
  32,
  32,
);

const avatar = (hue: number) =>
  svg(
    `<circle cx="28" cy="28" r="28" fill="hsl(${hue} 60% 45%)"/><circle cx="28" cy="22" r="10" fill="#fff" opacity=".9"/><rect x="12" y="36" width="32" height="14" rx="7" fill="#fff" opacity=".9"/>`,
    56,
    56,
  );

export const LANDING_PAGE_TITLE = "Tidewater: release checks your team can trust";

export const LANDING_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${LANDING_PAGE_TITLE}</title>
<meta name="description" content="Tidewater runs accessibility, content and layout checks on every page before it ships, and tells you exactly what to fix and where.">
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; font-family: "Liberation Sans", Arial, sans-serif; color: #0f172a; line-height: 1.5; background: #f8fafc; }
  a { color: #0f766e; text-decoration: none; }
  .wrap { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
  header { background: #fff; border-bottom: 1px solid #e2e8f0; }
  header .wrap { display: flex; align-items: center; justify-content: space-between; height: 68px; }
  .brand { display: flex; align-items: center; gap: 10px; font-weight: 700; font-size: 20px; color: #0f172a; }
  nav ul { display: flex; gap: 28px; list-style: none; margin: 0; padding: 0; }
  nav a { color: #334155; font-size: 15px; }
  .btn { display: inline-block; padding: 12px 22px; border-radius: 8px; font-weight: 600; font-size: 15px; }
  .btn-primary { background: #0f766e; color: #fff; }
  .btn-ghost { border: 1px solid #cbd5e1; color: #0f172a; background: #fff; }
  .hero { padding: 32px 0 24px; }
  .hero .wrap { display: grid; grid-template-columns: 1.25fr 1fr; gap: 40px; align-items: center; }
  .hero h1 { font-size: 42px; line-height: 1.1; margin: 0 0 18px; letter-spacing: -0.02em; }
  .hero p { font-size: 18px; color: #475569; margin: 0 0 28px; }
  .hero .actions { display: flex; gap: 12px; }
  .hero img { width: 100%; height: auto; display: block; }
  .logos { padding: 0 0 28px; color: #64748b; font-size: 14px; text-align: center; }
  .logos ul { display: inline-flex; gap: 32px; list-style: none; padding: 0; margin: 0 0 0 24px; vertical-align: middle; font-weight: 700; color: #94a3b8; font-size: 18px; }
  .features { background: #fff; padding: 28px 0; border-top: 1px solid #e2e8f0; border-bottom: 1px solid #e2e8f0; }
  .features h2, .pricing h2 { text-align: center; font-size: 28px; margin: 0 0 8px; }
  .pricing h2 { margin-bottom: 20px; }
  .lede { text-align: center; color: #475569; margin: 0 auto 24px; max-width: 620px; }
  .grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 24px; }
  .card { border: 1px solid #e2e8f0; border-radius: 12px; padding: 18px 20px; background: #fff; }
  .card h3 { margin: 8px 0 4px; font-size: 19px; }
  .card p { margin: 0; color: #475569; font-size: 15px; }
  .quote { padding: 20px 0; }
  .quote figure { margin: 0 auto; max-width: 760px; display: flex; gap: 20px; align-items: center; }
  .quote blockquote { margin: 0; font-size: 20px; color: #1e293b; }
  .quote figcaption { color: #64748b; font-size: 14px; margin-top: 6px; }
  .pricing { padding: 0 0 36px; }
  .plans { display: grid; grid-template-columns: repeat(3, 1fr); gap: 24px; }
  .plan { background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 16px 20px; }
  .plan.featured { border: 2px solid #0f766e; }
  .plan h3 { margin: 0; font-size: 18px; }
  .price { font-size: 30px; font-weight: 700; margin: 4px 0; }
  .plan ul { padding-left: 18px; color: #475569; font-size: 14px; margin: 0; }
  footer { background: #0f172a; color: #cbd5e1; padding: 24px 0; font-size: 14px; }
  footer .wrap { display: flex; justify-content: space-between; }
  footer a { color: #e2e8f0; margin-left: 20px; }
</style>
</head>
<body>
<header>
  <div class="wrap">
    <a class="brand" href="/"><img src="${logo}" alt="" width="32" height="32">Tidewater</a>
    <nav aria-label="Main">
      <ul>
        <li><a href="/product">Product</a></li>
        <li><a href="/pricing">Pricing</a></li>
        <li><a href="/docs">Docs</a></li>
        <li><a href="/customers">Customers</a></li>
      </ul>
    </nav>
    <a class="btn btn-primary" href="/signup">Start free</a>
  </div>
</header>
<main>
  <section class="hero">
    <div class="wrap">
      <div>
        <h1>Ship pages that pass review the first time</h1>
        <p>Tidewater checks every page before release: missing alt text, stray placeholder copy and broken headings. Each finding names the element and the fix.</p>
        <div class="actions">
          <a class="btn btn-primary" href="/signup">Run your first check</a>
          <a class="btn btn-ghost" href="/demo">Watch a two-minute demo</a>
        </div>
      </div>
      <img src="${heroImage}" alt="The Tidewater dashboard showing two passed checks and one failed check" width="440" height="305">
    </div>
  </section>
  <section class="logos" aria-label="Customers">
    Trusted by release teams at
    <ul><li>Northwind</li><li>Contoso</li><li>Fabrikam</li><li>Litware</li><li>Adventure Works</li></ul>
  </section>
  <section class="features">
    <div class="wrap">
      <h2>Everything a release review looks at</h2>
      <p class="lede">Run the checks from CI, from an agent or from the dashboard. The same judgment applies everywhere, and every verdict explains itself.</p>
      <div class="grid">
        <article class="card">
          <img src="${icon("#0f766e", "M14 25l7 7 13-15")}" alt="" width="40" height="40">
          <h3>Content checks</h3>
          <p>Catch filler text, unrendered template tags and missing titles before visitors do.</p>
        </article>
        <article class="card">
          <img src="${icon("#1d4ed8", "M12 16h24M12 24h16M12 32h20")}" alt="" width="40" height="40">
          <h3>Structure checks</h3>
          <p>One main heading, headings in order, a declared language and a mobile viewport.</p>
        </article>
        <article class="card">
          <img src="${icon("#9333ea", "M10 34l9-10 7 6 12-14")}" alt="" width="40" height="40">
          <h3>Clear reports</h3>
          <p>Each failure points at the element, quotes what was found and says what to change.</p>
        </article>
      </div>
    </div>
  </section>
  <section class="quote">
    <figure>
      <img src="${avatar(200)}" alt="Portrait of Maya Lindqvist" width="56" height="56">
      <div>
        <blockquote>We used to find broken headings in production. Now the pull request tells us, with the selector, before anyone reviews it.</blockquote>
        <figcaption>Maya Lindqvist, web platform lead at Northwind</figcaption>
      </div>
    </figure>
  </section>
  <section class="pricing">
    <div class="wrap">
      <h2>Simple pricing</h2>
      <div class="plans">
        <div class="plan"><h3>Free</h3><div class="price">$0</div><ul><li>1,000 credits a month</li><li>Every functional check</li><li>Community support</li></ul></div>
        <div class="plan featured"><h3>Team</h3><div class="price">$49</div><ul><li>25,000 credits a month</li><li>Visual checks at three sizes</li><li>Email support</li></ul></div>
        <div class="plan"><h3>Scale</h3><div class="price">$299</div><ul><li>250,000 credits a month</li><li>Self-hosted option</li><li>Priority support</li></ul></div>
      </div>
    </div>
  </section>
</main>
<footer>
  <div class="wrap">
    <span>&copy; 2025 Tidewater Labs</span>
    <span><a href="/privacy">Privacy</a><a href="/terms">Terms</a><a href="/status">Status</a></span>
  </div>
</footer>
</body>
</html>
`;
