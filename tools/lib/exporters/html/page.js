/* qbank export --to html: the page's script (compiled in, written inline).
 * Typesets math with KaTeX (MathML output, no fonts needed) when the page
 * has it, labels code blocks with their language and runs the filter box. */
(function () {
	"use strict";
	var doc = document;

	function each(sel, fn, root) {
		var list = (root || doc).querySelectorAll(sel);
		for (var k = 0; k < list.length; k++)
			fn(list[k]);
	}

	function typeset(el) {
		var t = el.textContent;
		var display = t.slice(0, 2) === "\\[";
		var tex = t.replace(/^\\[([]/, "").replace(/\\[)\]]$/, "");
		try {
			window.katex.render(tex, el, { displayMode: display, output: "mathml", throwOnError: false });
		} catch (e) {
			el.className += " math-error";
			el.title = String(e && e.message);
		}
		el.setAttribute("data-typeset", "");
	}

	// A few hundred formulas are typeset at once; beyond that each one as
	// it comes near the screen (and all of them before printing), so that a
	// big bank opens as fast as a small one.
	if (window.katex) {
		var maths = doc.querySelectorAll(".math");
		var all = function () {
			each(".math:not([data-typeset])", typeset);
		};
		if (maths.length <= 400 || !window.IntersectionObserver) {
			all();
		} else {
			var io = new IntersectionObserver(function (entries) {
				for (var k = 0; k < entries.length; k++)
					if (entries[k].isIntersecting) {
						io.unobserve(entries[k].target);
						typeset(entries[k].target);
					}
			}, { rootMargin: "800px 0px" });
			for (var m = 0; m < maths.length; m++)
				io.observe(maths[m]);
			window.addEventListener("beforeprint", all);
		}
	}

	each("pre[class*='language-']", function (el) {
		var m = /(?:^|\s)language-(\S+)/.exec(el.className);
		if (m)
			el.setAttribute("data-lang", m[1]);
	});

	var input = doc.getElementById("filter");
	var status = doc.getElementById("status");
	var qs = doc.querySelectorAll("article.q");
	var sections = doc.querySelectorAll("section.cat");
	var tocItems = doc.querySelectorAll("[data-toc]");
	var texts = null;

	function lower(s) {
		return (s || "").toLowerCase();
	}

	function index() {
		texts = [];
		for (var k = 0; k < qs.length; k++) {
			var a = qs[k];
			var rules = [];
			each(".finding", function (f) { rules.push(lower(f.getAttribute("data-rule"))); }, a);
			texts.push({
				text: lower(a.textContent),
				tags: lower(a.getAttribute("data-tags")).split("\n"),
				cat: lower(a.getAttribute("data-cat")),
				id: lower(a.id.slice(2)),
				type: lower(a.getAttribute("data-type")),
				rules: rules
			});
		}
	}

	function parse(s) {
		var words = lower(s).split(/\s+/), terms = [];
		for (var k = 0; k < words.length; k++) {
			var w = words[k], m = /^(tag|cat|rule|id|type):(.*)$/.exec(w);
			if (!w)
				continue;
			terms.push(m ? { key: m[1], val: m[2] } : { key: "text", val: w });
		}
		return terms;
	}

	function anyHas(list, val, exact) {
		for (var k = 0; k < list.length; k++)
			if (exact ? list[k] === val : list[k].indexOf(val) >= 0)
				return true;
		return false;
	}

	function match(t, term) {
		switch (term.key) {
		case "tag": return anyHas(t.tags, term.val, false);
		case "cat": return t.cat.indexOf(term.val) >= 0;
		case "rule": return anyHas(t.rules, term.val, false);
		case "id": return t.id.indexOf(term.val) >= 0;
		case "type": return t.type === term.val;
		default: return t.text.indexOf(term.val) >= 0;
		}
	}

	function apply() {
		var terms = parse(input.value), shown = 0;
		if (!texts)
			index();
		for (var k = 0; k < qs.length; k++) {
			var ok = true;
			for (var j = 0; ok && j < terms.length; j++)
				ok = match(texts[k], terms[j]);
			qs[k].hidden = !ok;
			if (ok)
				shown++;
		}
		for (var s = 0; s < sections.length; s++) {
			var visible = sections[s].querySelector("article.q:not([hidden])") !== null;
			sections[s].hidden = !visible;
			if (tocItems[s])
				tocItems[s].hidden = !visible;
		}
		status.textContent = terms.length ? shown + " of " + qs.length + " questions shown" : "";
	}

	var timer = 0;
	if (input) {
		input.addEventListener("input", function () {
			clearTimeout(timer);
			timer = setTimeout(apply, qs.length > 2000 ? 150 : 30);
		});
		input.addEventListener("keydown", function (e) {
			if (e.key === "Escape") {
				input.value = "";
				apply();
			} else if (e.key === "Enter") {
				clearTimeout(timer);
				apply();
			}
		});
	}

	each(".rule-filter", function (b) {
		b.addEventListener("click", function () {
			input.value = "rule:" + b.getAttribute("data-rule");
			apply();
			input.focus();
		});
	});

	doc.addEventListener("keydown", function (e) {
		var t = e.target && e.target.tagName;
		if (e.key === "/" && t !== "INPUT" && t !== "TEXTAREA" && !e.ctrlKey && !e.metaKey && !e.altKey) {
			e.preventDefault();
			input.focus();
			input.select();
		}
	});

	// the end of the page's own work, for the load-time benchmark
	if (window.performance && performance.mark)
		performance.mark("qbank-ready");
})();
