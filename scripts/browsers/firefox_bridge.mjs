// The Node side of firefox.py: Puppeteer drives Firefox over WebDriver BiDi (no geckodriver), and
// this process turns each JSON request on a line of stdin into one JSON reply on a line of stdout,
// in order. A session is a browser context of its own (a fresh profile: cache, storage and service
// workers apart) with one page.
//
//   node firefox_bridge.mjs <firefox executable>
//   → {"seq": 1, "op": "open", "width": 1280, "height": 900}
//   ← {"seq": 1, "ok": true, "value": 1}
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const [executablePath] = process.argv.slice(2);
const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  // Puppeteer waits 30 s for Firefox to print its endpoint; on a machine with no free core a
  // start can take longer than that.
  timeout: 90_000,
  protocolTimeout: 180_000,
  // On a closed network: no captive-portal or connectivity probes (Puppeteer's own preferences
  // already turn off updates, telemetry and safe browsing).
  extraPrefsFirefox: {
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
  },
});

const sessions = new Map();
let nextId = 1;

function session(id) {
  const s = sessions.get(id);
  if (!s) throw new Error(`no session ${id}`);
  return s;
}

function frameOf(page, part) {
  if (!part) return page.mainFrame();
  const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes(part));
  if (!frame) throw new Error(`no frame whose URL contains ${part}`);
  return frame;
}

const ops = {
  version: () => browser.version(),

  async open({ width, height }) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    // BiDi's browsingContext.setViewport alone: Puppeteer's page.setViewport also sends
    // emulation.setScreenOrientationOverride, which Firefox ESR 140 does not know.
    await page.mainFrame().browsingContext.setViewport({ viewport: { width, height }, devicePixelRatio: null });
    const inner = await page.evaluate(() => [innerWidth, innerHeight]);
    if (inner[0] !== width || inner[1] !== height) throw new Error(`asked for ${width} x ${height}, the page has ${inner.join(" x ")}`);
    const errors = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(`uncaught: ${e && e.message ? e.message : e}`));
    const id = nextId++;
    sessions.set(id, { context, page, errors });
    return id;
  },

  async goto({ id, url, wait }) {
    await session(id).page.goto(url, { waitUntil: wait || "load", timeout: 120_000 });
  },

  async reload({ id }) {
    await session(id).page.reload({ waitUntil: "load", timeout: 120_000 });
  },

  // `js` is a function expression; it is called with `args` (JSON) in the page or one of its frames.
  async evaluate({ id, js, args, frame }) {
    const value = await frameOf(session(id).page, frame).evaluate(`(${js})(...${JSON.stringify(args)})`);
    return value === undefined ? null : value;
  },

  async click({ id, x, y }) {
    await session(id).page.mouse.click(x, y);
  },

  // WebDriver BiDi's network emulation (emulation.setNetworkConditions) for this page: true when
  // it took, false where this Firefox does not know the command (ESR 140), as WebKit's driver,
  // and the test takes its server away instead.
  async offline({ id, offline }) {
    try {
      await session(id).page.setOfflineMode(offline);
      return true;
    } catch (e) {
      if (String(e && e.message).includes("unknown command emulation.setNetworkConditions")) return false;
      throw e;
    }
  },

  errors: ({ id }) => session(id).errors,

  async close({ id }) {
    const s = sessions.get(id);
    sessions.delete(id);
    if (s) await s.context.close();
  },
};

const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { seq, op, ...args } = JSON.parse(line);
  try {
    if (!ops[op]) throw new Error(`unknown op ${op}`);
    reply({ seq, ok: true, value: (await ops[op](args)) ?? null });
  } catch (err) {
    reply({ seq, ok: false, error: String((err && err.stack) || err) });
  }
}
await browser.close();
