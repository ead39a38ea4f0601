// The HTML page in a real browser: Debian's Chromium, driven headless by
// playwright-core (the npm package, into build/tools by tools/setup.sh),
// with axe-core for accessibility.
//
//   node browser.js check OUTDIR PAGE.html:EXPECT...   the checks below, per page
//   node browser.js bench PAGE.html [RUNS]             load time of a big page
//
// EXPECT is a comma-separated list of what the page must have: "math"
// (typeset), "keys" (the teacher switch shows and hides them), "filter:Q:N"
// (filter text Q leaves N questions), "shot" (screenshots at phone and
// desktop widths into OUTDIR), "answers" (starts in teacher view).
// Every page: no console error, no uncaught exception, no request other than
// the page's own file, zero serious or critical axe violations (WCAG 2 A and
// AA, in the teacher view so that every part of the page is shown).
// Prints "ok NAME" / "FAIL NAME: why" lines; exits 1 on a failure, 3 when
// Chromium or the npm packages are missing.
"use strict";

const path = require("path");
const fs = require("fs");

const tools = process.env.QBANK_TOOLS || "build/tools";
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
let pw, axeSource;
try {
	pw = require(path.resolve(tools, "node_modules/playwright-core"));
	axeSource = fs.readFileSync(path.resolve(tools, "node_modules/axe-core/axe.min.js"), "utf8");
} catch (e) {
	console.log("SKIP playwright-core or axe-core is not in " + tools + " (tools/setup.sh test installs them)");
	process.exit(3);
}
if (!fs.existsSync(chromium)) {
	console.log("SKIP " + chromium + " is not installed (tools/setup.sh test installs chromium)");
	process.exit(3);
}

let failed = 0;
function ok(name) { console.log("ok " + name); }
function fail(name, why) { failed++; console.log("FAIL " + name + ": " + why); }

async function launch() {
	return pw.chromium.launch({
		executablePath: chromium,
		headless: true,
		// no sandbox: the tests may run as root in a container
		args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
			"--disable-background-networking", "--disable-component-update",
			"--disable-default-apps", "--disable-sync"],
	});
}

// A page opened with the network off, recording console errors, exceptions
// and every request.
async function open(browser, file, width, height, timeout) {
	const ctx = await browser.newContext({ offline: true, viewport: { width, height } });
	const page = await ctx.newPage();
	const url = "file://" + path.resolve(file);
	const log = { errors: [], requests: [] };
	page.on("console", (m) => { if (m.type() === "error") log.errors.push(m.text()); });
	page.on("pageerror", (e) => log.errors.push(String(e)));
	page.on("request", (r) => { if (r.url() !== url) log.requests.push(r.url()); });
	await page.goto(url, { waitUntil: "load", timeout: timeout || 30000 });
	return { ctx, page, log };
}

async function checkPage(browser, outdir, spec) {
	const [file, expect = ""] = spec.split(/:(.*)/s);
	const want = expect ? expect.split(",") : [];
	const name = path.basename(file, ".html");
	const { ctx, page, log } = await open(browser, file, 1280, 900);

	// math: every .math element holds MathML, and no TeX delimiter is left
	// in the text a reader sees (KaTeX keeps the source in <annotation>)
	const math = await page.evaluate(() => {
		const all = document.querySelectorAll(".math");
		let typeset = 0, errors = 0;
		// KaTeX marks TeX it cannot parse (the source, in red, its message
		// as the title) instead of typesetting it
		all.forEach((el) => { if (el.querySelector("math")) typeset++; else if (el.querySelector(".katex-error")) errors++; });
		const clone = document.body.cloneNode(true);
		clone.querySelectorAll("annotation, script, style").forEach((a) => a.remove());
		const raw = /\\\(|\\\[/.test(clone.textContent);
		return { n: all.length, typeset, errors, raw };
	});
	if (want.includes("math")) {
		if (math.typeset === 0 || math.typeset + math.errors !== math.n || math.raw)
			fail(name + " math", JSON.stringify(math));
		else
			ok(name + " math: " + math.typeset + " of " + math.n + " formulas typeset as MathML" +
			   (math.errors ? ", " + math.errors + " marked as TeX KaTeX cannot parse" : ""));
	} else if (math.raw) {
		fail(name + " math", "raw TeX delimiters on the page");
	}

	// the DOM after the scripts ran, for a look (chromium --dump-dom gives the same)
	fs.writeFileSync(path.join(outdir, name + ".dom.html"), await page.content());

	const shown = () => page.evaluate(() => {
		const keys = [...document.querySelectorAll(".key, .answer, .rationale, .explanation")];
		return { n: keys.length, visible: keys.filter((k) => k.getClientRects().length > 0).length };
	});
	const before = await shown();
	if (want.includes("keys") || want.includes("answers")) {
		const startsOn = want.includes("answers");
		if (before.n === 0)
			fail(name + " teacher view", "no keys on the page");
		else if (startsOn ? before.visible !== before.n : before.visible !== 0)
			fail(name + " teacher view", "at load " + before.visible + " of " + before.n + " teacher parts shown");
		await page.focus("#teacher");
		await page.keyboard.press("Space");   // by keyboard, as a reviewer may
		const after = await shown();
		if (startsOn ? after.visible !== 0 : after.visible !== after.n)
			fail(name + " teacher view", "after the switch " + after.visible + " of " + after.n + " shown");
		else
			ok(name + " teacher view toggles " + after.n + " keys, rationales and explanations");
		if (startsOn)
			await page.keyboard.press("Space");
	}

	for (const w of want.filter((x) => x.startsWith("filter:"))) {
		const q = w.slice(7, w.lastIndexOf(":")), n = w.slice(w.lastIndexOf(":") + 1);
		await page.fill("#filter", q);
		await page.press("#filter", "Enter");
		const got = await page.evaluate(() => ({
			visible: document.querySelectorAll("article.q:not([hidden])").length,
			all: document.querySelectorAll("article.q").length,
			status: document.getElementById("status").textContent,
		}));
		if (String(got.visible) !== n)
			fail(name + " filter '" + q + "'", got.visible + " of " + got.all + " shown, want " + n);
		else
			ok(name + " filter '" + q + "' leaves " + n + " of " + got.all + " (" + got.status + ")");
		await page.fill("#filter", "");
		await page.press("#filter", "Escape");
	}

	// accessibility, with every part of the page shown (teacher view,
	// findings' explanations open)
	await page.evaluate(() => {
		const t = document.getElementById("teacher");
		if (!t.checked)
			t.click();
		document.querySelectorAll("details").forEach((d) => { d.open = true; });
	});
	stamp("before axe");
	await page.addScriptTag({ content: axeSource });
	const axe = await page.evaluate(async () => {
		const r = await window.axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21aa"], resultTypes: ["violations"] });
		return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length,
			first: v.nodes[0] && v.nodes[0].target.join(" ") }));
	});
	const bad = axe.filter((v) => v.impact === "serious" || v.impact === "critical");
	if (bad.length)
		fail(name + " axe", JSON.stringify(bad));
	else
		ok(name + " axe-core: no serious or critical violation" +
		   (axe.length ? " (" + axe.map((v) => v.id + "/" + v.impact).join(", ") + ")" : ""));

	stamp("axe done");
	if (want.includes("shot")) {
		await page.evaluate(() => {
			document.querySelectorAll("details").forEach((d) => { d.open = false; });
			if (document.getElementById("teacher").checked)
				document.getElementById("teacher").click();
		});
		await page.screenshot({ path: path.join(outdir, name + "-desktop.png"), fullPage: false });
		await page.evaluate(() => document.getElementById("teacher").click());
		await page.screenshot({ path: path.join(outdir, name + "-desktop-teacher.png"), fullPage: false });
		const withMath = page.locator("article.q:has(.math)").first();
		if (await withMath.count())
			await withMath.screenshot({ path: path.join(outdir, name + "-math.png") });
		const phone = await open(browser, file, 390, 844);
		await phone.page.screenshot({ path: path.join(outdir, name + "-phone.png"), fullPage: false });
		await phone.page.emulateMedia({ media: "print" });
		await phone.page.setViewportSize({ width: 800, height: 1100 });
		await phone.page.screenshot({ path: path.join(outdir, name + "-print.png"), fullPage: false });
		log.errors.push(...phone.log.errors);
		log.requests.push(...phone.log.requests);
		await phone.ctx.close();
		ok(name + " screenshots in " + outdir);
	}

	if (log.errors.length)
		fail(name + " console", log.errors.slice(0, 3).join(" | "));
	else
		ok(name + " no console error");
	if (log.requests.length)
		fail(name + " network", log.requests.slice(0, 3).join(" "));
	else
		ok(name + " no request beyond the page itself");
	await ctx.close();
}

// Load time: navigation start to the end of the page's own script (which
// runs last, after KaTeX), and to the load event; best of RUNS.
async function bench(browser, file, runs) {
	let best = null;
	for (let i = 0; i < runs; i++) {
		// wall time depends on how busy the machine is; the renderer's
		// main-thread busy time (DevTools' Performance metrics) much less
		const ctx = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
		const page = await ctx.newPage();
		const log = { errors: [] };
		page.on("pageerror", (e) => log.errors.push(String(e)));
		const cdp = await ctx.newCDPSession(page);
		await cdp.send("Performance.enable");
		await page.goto("file://" + path.resolve(file), { waitUntil: "load", timeout: 300000 });
		const t = await page.evaluate(() => new Promise((resolve) => {
			// after the first frame is painted
			requestAnimationFrame(() => setTimeout(() => {
				const n = performance.getEntriesByType("navigation")[0];
				const r = performance.getEntriesByName("qbank-ready")[0];
				const p = performance.getEntriesByName("first-contentful-paint")[0];
				resolve({ dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,
					ready: r ? r.startTime : -1, fcp: p ? p.startTime : -1,
					questions: document.querySelectorAll("article.q").length });
			}, 0));
		}));
		const f0 = Date.now();
		await page.fill("#filter", "tag:zzz-none");
		await page.press("#filter", "Enter");
		await page.evaluate(() => document.getElementById("status").textContent);
		t.filter = Date.now() - f0;
		const m = {};
		(await cdp.send("Performance.getMetrics")).metrics.forEach((x) => { m[x.name] = x.value; });
		t.busy = Math.round(1000 * (m.TaskDuration || 0));
		t.script = Math.round(1000 * (m.ScriptDuration || 0));
		t.layout = Math.round(1000 * ((m.LayoutDuration || 0) + (m.RecalcStyleDuration || 0)));
		if (log.errors.length)
			fail("bench console", log.errors[0]);
		if (!best || t.load < best.load)
			best = t;
		await ctx.close();
	}
	const bytes = fs.statSync(file).size;
	console.log(JSON.stringify({ file, bytes, questions: best.questions,
		bytes_per_question: Math.round(bytes / best.questions),
		domcontentloaded_ms: Math.round(best.dcl), script_done_ms: Math.round(best.ready),
		first_paint_ms: Math.round(best.fcp), load_ms: Math.round(best.load),
		main_thread_busy_ms: best.busy, script_ms: best.script, style_layout_ms: best.layout,
		first_filter_ms: best.filter }));
}

const t0 = Date.now();
const stamp = (what) => { if (process.env.QBANK_BROWSER_TIMES) console.log("# " + (Date.now() - t0) + " ms " + what); };

(async () => {
	const [mode, ...rest] = process.argv.slice(2);
	const browser = await launch();
	stamp("launched");
	try {
		if (mode === "bench") {
			await bench(browser, rest[0], Number(rest[1] || 3));
		} else {
			const outdir = rest.shift();
			fs.mkdirSync(outdir, { recursive: true });
			for (const spec of rest) {
				await checkPage(browser, outdir, spec);
				stamp(spec);
			}
		}
	} catch (e) {
		fail("browser", e && e.stack || String(e));
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
})();
