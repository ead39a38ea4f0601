/* qbank-gen: writes a synthetic question bank of N questions for the
 * benchmark (make bench). Not installed.
 *
 * The bank is deterministic (same N and seed give the same bytes) and shaped
 * like a real one: stems of 15-40 words, 4-5 options each with a rationale,
 * an explanation per question, a `multiple` question with select="k" every
 * fifth question, categories of 1,000 questions inside parts of 10,000, and
 * a little markup (code, em, strong, math, paragraphs).
 *
 * The content is lint-clean on purpose, so that a run measures reading and
 * checking rather than the cost of a million findings: stems carry a word
 * made from the question number (no duplicates), option texts are random
 * word sequences (no near duplicates, no reused option sets), rationales
 * open with "Correct."/"Incorrect." as the key says, keys are spread evenly
 * over the positions, a single key is never the longest option, and the
 * vocabulary holds no negatives, absolute terms, letter references or
 * "all/none of the above".
 *
 * --error-at K puts one schema error (an unknown <hint> element) into
 * question K and prints its line on standard error, to check that a reader
 * reports it at the right line of a large file.
 *
 * -p text writes the other shape of bank the benchmark measures: plain
 * text shaped like real course banks (stems of 12-30 words, 4-5 options of
 * 3-9 words, a rationale of 6-16 words on each, an explanation of 15-40
 * words, one tag, no inline markup, `multiple` every fourth question;
 * about 1.6 KB a question).
 *
 * Usage: qbank-gen [-n N] [-p markup|text] [-s SEED] [-e K] [-o FILE]
 * The XML is written with libxml2's xmlTextWriter. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#define PER_CATEGORY 1000UL
#define PER_PART     10000UL

/* The shapes of bank the generator writes (-p). "markup" is the original
 * benchmark bank; "text" is shaped like real course banks (about 1.6 KB a
 * question, no inline markup), where libxml2's own work is smaller and
 * qbank's share of the time shows more. */
struct profile {
	const char *name;
	unsigned long stem_lo, stem_hi;       /* words in a stem */
	unsigned long opt_lo, opt_hi;         /* words in an option */
	unsigned long rat_lo, rat_hi;         /* words in a rationale, after its first */
	unsigned long expl_lo, expl_hi;       /* words in an explanation */
	unsigned long multiple_every;         /* every Nth question is `multiple` */
	unsigned long max_tags;
	int markup;                           /* code, em, strong, math, paragraphs */
};

static const struct profile profiles[] = {
	{ "markup", 15, 40, 3, 10, 10, 25,  0,  0, 5, 2, 1 },  /* explanation: see write_explanation */
	{ "text",   12, 30, 3,  9,  5, 15, 15, 40, 4, 1, 0 },
};
static const struct profile *prof = &profiles[0];

/* ---- deterministic random numbers (splitmix64) ----------------------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static unsigned long rng_range(unsigned long lo, unsigned long hi)
{
	return lo + (unsigned long)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* ---- vocabulary --------------------------------------------------------
 * Lower-case words of three letters or more. Kept out on purpose: not,
 * except, least (stem-negative-unemphasized), all, none, above, both
 * (option-*-the-above, option-letter-reference), always, never, only, every
 * (cue-absolute-terms), select, choose, pick and number words
 * (key-select-mismatch), correct, incorrect, right, wrong, yes
 * (key-rationale-conflict). */
static const char *const words[] = {
	"accelerator", "accumulation", "activation", "adapter", "aggregation", "algorithm",
	"allocation", "allreduce", "analysis", "approximation", "architecture", "array",
	"asynchronous", "attention", "augmentation", "autograd", "average", "backend",
	"backpropagation", "bandwidth", "barrier", "baseline", "batch", "benchmark",
	"bias", "binary", "bitwidth", "block", "bottleneck", "bucket", "buffer",
	"cache", "calibration", "capacity", "checkpoint", "chunk", "classifier",
	"cluster", "coefficient", "collective", "communication", "compiler",
	"compression", "compute", "concurrency", "configuration", "consistency",
	"container", "context", "controller", "convergence", "convolution",
	"coordinator", "core", "cost", "counter", "coupling", "dataset", "deadline",
	"decoder", "dependency", "deployment", "device", "dimension", "distillation",
	"distribution", "driver", "dropout", "elastic", "embedding", "encoder",
	"ensemble", "epoch", "estimator", "evaluation", "executor", "expert",
	"factor", "failure", "feature", "fetch", "filter", "fleet", "float",
	"format", "fragment", "framework", "function", "fusion", "gateway", "gather",
	"generator", "gradient", "graph", "group", "hardware", "hashing", "head",
	"heuristic", "hierarchy", "histogram", "host", "hyperparameter", "index",
	"inference", "initialization", "input", "instance", "interconnect", "interface",
	"interval", "iteration", "kernel", "label", "latency", "layer", "layout",
	"learner", "learning", "lease", "library", "link", "loader", "locality",
	"logit", "loss", "matrix", "memory", "mesh", "message", "method", "metric",
	"microbatch", "migration", "mixture", "model", "module", "momentum",
	"monitor", "network", "neuron", "node", "normalization", "objective",
	"offload", "operator", "optimizer", "orchestration", "output", "overhead",
	"overlap", "packet", "padding", "parameter", "partition", "pass", "path",
	"pattern", "peer", "penalty", "pipeline", "placement", "policy", "pool",
	"precision", "prediction", "prefetch", "primitive", "priority", "probe",
	"process", "profile", "projection", "protocol", "pruning", "quantization",
	"queue", "rank", "rate", "ratio", "reader", "recovery", "reduction",
	"redundancy", "region", "register", "regularization", "replica", "request",
	"residual", "resource", "retry", "ring", "rollout", "round", "router",
	"runtime", "sample", "sampler", "scale", "scaling", "schedule", "scheduler",
	"scheme", "segment", "sequence", "server", "service", "shard", "sharding",
	"signal", "simulation", "slot", "snapshot", "socket", "solver", "sparsity",
	"stage", "staleness", "state", "step", "storage", "strategy", "stream",
	"stride", "subgroup", "summary", "switch", "synchronization", "table",
	"target", "task", "telemetry", "tensor", "thread", "threshold", "throughput",
	"tile", "timeout", "token", "topology", "trace", "trainer", "training",
	"transfer", "transformer", "tree", "tuning", "update", "utilization",
	"validation", "value", "variance", "vector", "version", "volume", "warmup",
	"weight", "window", "worker", "workload", "accurate", "adaptive", "balanced",
	"bounded", "central", "cheap", "coarse", "common", "compact", "consistent",
	"costly", "dense", "dynamic", "early", "efficient", "exact", "fast", "fine",
	"frequent", "global", "gradual", "heavy", "idle", "large", "late", "lazy",
	"light", "linear", "local", "lossy", "manual", "mixed", "modest", "noisy",
	"optimal", "parallel", "partial", "periodic", "public", "random", "rapid",
	"recent", "regular", "remote", "robust", "serial", "shared", "slow", "small",
	"sparse", "stable", "static", "steady", "strict", "synchronous", "uniform",
	"useful", "virtual", "visible", "accumulates", "adjusts", "aggregates",
	"allocates", "applies", "averages", "balances", "broadcasts", "buffers",
	"caches", "computes", "controls", "copies", "delays", "detects", "divides",
	"encodes", "estimates", "exchanges", "exposes", "fetches", "groups", "hides",
	"improves", "increases", "limits", "loads", "maps", "merges", "moves",
	"overlaps", "partitions", "prefers", "prevents", "processes", "reduces",
	"replicates", "requires", "reuses", "routes", "samples", "scales", "schedules",
	"sends", "shards", "shrinks", "slows", "splits", "stores", "streams",
	"tracks", "transfers", "updates", "uses", "waits", "with", "from", "into",
	"across", "between", "within", "over", "under", "after", "before", "during",
	"through", "per", "for", "and", "the", "its", "their", "some", "many",
	"more", "fewer", "less", "when", "while", "then",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static const char *const leads[] = {
	"Which", "What", "How", "Why", "Which design", "What effect", "Which change",
	"What limits", "Which property", "How often",
};
#define NLEADS (sizeof(leads) / sizeof(leads[0]))

static const char *const tags[] = {
	"allreduce", "batching", "checkpointing", "collectives", "compression",
	"data-parallelism", "elasticity", "fsdp", "inference", "io", "mixed-precision",
	"model-parallelism", "networking", "optimizers", "parameter-server",
	"pipeline-parallelism", "profiling", "quantization", "scheduling", "sharding",
	"straggler", "tensor-parallelism", "topology", "tuning",
};
#define NTAGS (sizeof(tags) / sizeof(tags[0]))

static const char *const number_words[] = { "zero", "one", "two", "three", "four", "five" };

static const char *word(void)
{
	return words[rng_range(0, NWORDS - 1)];
}

/* ---- text building ---------------------------------------------------- */

struct text {
	char buf[2048];
	size_t len;
};

static void text_clear(struct text *t)
{
	t->len = 0;
	t->buf[0] = '\0';
}

static void text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 >= sizeof(t->buf))
		n = sizeof(t->buf) - t->len - 1;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* Appends N random words, space separated, with a leading space when the
 * text is not empty; CAP capitalises the first. */
static void text_words(struct text *t, unsigned long n, int cap)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		const char *w = word();

		if (t->len > 0)
			text_add(t, " ");
		if (cap && i == 0) {
			char c[2] = { (char)(w[0] - 'a' + 'A'), '\0' };

			text_add(t, c);
			text_add(t, w + 1);
		} else {
			text_add(t, w);
		}
	}
}

/* A made-up word from the question number (bijective base 100 over
 * consonant-vowel syllables): unique per question, so that no two stems are
 * equal or nearly equal, and free of digits. */
static void number_word(char *out, size_t cap, unsigned long n)
{
	static const char cons[] = "bdfgklmnprstvz";   /* 14 */
	static const char vows[] = "aeiou";            /* 5 -> 70 syllables */
	char tmp[64];
	size_t k = 0, i;

	n++;
	while (n > 0 && k + 2 < sizeof(tmp)) {
		unsigned long d;

		n--;
		d = n % 70;
		n /= 70;
		tmp[k++] = vows[d % 5];
		tmp[k++] = cons[d / 5];
	}
	if (k + 1 > cap)
		k = cap - 1;
	for (i = 0; i < k; i++)
		out[i] = tmp[k - 1 - i];
	out[k] = '\0';
}

/* ---- writing ------------------------------------------------------------ */

struct out {
	FILE *f;
	unsigned long lines;       /* newlines written so far */
	int failed;
};

static int out_write(void *ctx, const char *buf, int len)
{
	struct out *o = ctx;
	int i;

	for (i = 0; i < len; i++)
		o->lines += buf[i] == '\n';
	if (fwrite(buf, 1, (size_t)len, o->f) != (size_t)len) {
		o->failed = 1;
		return -1;
	}
	return len;
}

static int out_close(void *ctx)
{
	(void)ctx;
	return 0;
}

#define W(call) do { if ((call) < 0) return -1; } while (0)

static int write_text_el(xmlTextWriterPtr w, const char *name, const char *text)
{
	return xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST text);
}

/* A stem: a context sentence that names the question's made-up word, then
 * the lead-in question; sometimes with inline code or emphasis. For a
 * multiple question, "Select N." in bold closes it. */
static int write_stem(xmlTextWriterPtr w, unsigned long qno, unsigned long nsel)
{
	struct text t;
	char nw[32];
	unsigned long total = rng_range(prof->stem_lo, prof->stem_hi), ctxw, leadw;
	unsigned long style = prof->markup ? rng_range(0, 9) : 9;

	number_word(nw, sizeof(nw), qno);
	ctxw = total / 2 + rng_range(0, total / 4);
	leadw = total - ctxw - 1;
	W(xmlTextWriterStartElement(w, BAD_CAST "stem"));
	text_clear(&t);
	text_add(&t, "In the ");
	text_add(&t, nw);
	text_add(&t, " system");
	text_words(&t, ctxw > 4 ? ctxw - 4 : 1, 0);
	text_add(&t, ". ");
	text_add(&t, leads[rng_range(0, NLEADS - 1)]);
	if (style == 0) {
		text_add(&t, " ");
		W(xmlTextWriterWriteString(w, BAD_CAST t.buf));
		W(write_text_el(w, "code", word()));
		text_clear(&t);
		text_words(&t, leadw > 2 ? leadw - 2 : 1, 0);
		W(xmlTextWriterWriteString(w, BAD_CAST " "));
	} else if (style == 1) {
		text_add(&t, " ");
		W(xmlTextWriterWriteString(w, BAD_CAST t.buf));
		W(write_text_el(w, "em", word()));
		text_clear(&t);
		text_words(&t, leadw > 2 ? leadw - 2 : 1, 0);
		W(xmlTextWriterWriteString(w, BAD_CAST " "));
	} else {
		text_words(&t, leadw > 1 ? leadw - 1 : 1, 0);
	}
	text_add(&t, "?");
	W(xmlTextWriterWriteString(w, BAD_CAST t.buf));
	if (nsel) {
		char sel[32];

		snprintf(sel, sizeof(sel), "Select %s.", number_words[nsel]);
		W(xmlTextWriterWriteString(w, BAD_CAST " "));
		if (prof->markup)
			W(write_text_el(w, "strong", sel));
		else
			W(xmlTextWriterWriteString(w, BAD_CAST sel));
	}
	return xmlTextWriterEndElement(w);
}

static int write_rationale(xmlTextWriterPtr w, int correct)
{
	struct text t;

	text_clear(&t);
	text_add(&t, correct ? "Correct." : "Incorrect.");
	text_words(&t, rng_range(prof->rat_lo, prof->rat_hi), 1);
	text_add(&t, ".");
	return write_text_el(w, "rationale", t.buf);
}

static int write_explanation(xmlTextWriterPtr w)
{
	struct text t;
	unsigned long style;

	if (!prof->markup) {
		/* one paragraph of plain text */
		text_clear(&t);
		text_words(&t, rng_range(prof->expl_lo, prof->expl_hi), 1);
		text_add(&t, ".");
		return write_text_el(w, "explanation", t.buf);
	}
	style = rng_range(0, 3);
	W(xmlTextWriterStartElement(w, BAD_CAST "explanation"));
	text_clear(&t);
	text_words(&t, rng_range(12, 30), 1);
	text_add(&t, ".");
	if (style == 0) {
		/* two paragraphs, the second with a formula */
		W(write_text_el(w, "p", t.buf));
		W(xmlTextWriterStartElement(w, BAD_CAST "p"));
		text_clear(&t);
		text_words(&t, rng_range(8, 20), 1);
		text_add(&t, " ");
		W(xmlTextWriterWriteString(w, BAD_CAST t.buf));
		W(write_text_el(w, "math", "\\theta_{t+1} = \\theta_t - \\eta \\nabla L(\\theta_t)"));
		W(xmlTextWriterWriteString(w, BAD_CAST "."));
		W(xmlTextWriterEndElement(w));
	} else {
		text_words(&t, rng_range(8, 25), 1);
		text_add(&t, ".");
		W(xmlTextWriterWriteString(w, BAD_CAST t.buf));
	}
	return xmlTextWriterEndElement(w);
}

struct gen {
	unsigned long n;
	unsigned long error_at;    /* 1-based question number, 0 = none */
	unsigned long error_line;
	struct out *out;
};

static int write_question(xmlTextWriterPtr w, struct gen *g, unsigned long qno)
{
	char id[32], num[64];
	struct text opt[5];
	unsigned long nopt = rng_range(4, 5), i, ncorrect = 1, nsel = 0, tag;
	int correct[5] = { 0 };
	int multiple = qno % prof->multiple_every == prof->multiple_every - 1;

	snprintf(id, sizeof(id), "q%07lu", qno + 1);
	for (i = 0; i < nopt; i++) {
		text_clear(&opt[i]);
		text_words(&opt[i], rng_range(prof->opt_lo, prof->opt_hi), 1);
	}
	if (multiple) {
		/* 2 or 3 correct, never every option */
		ncorrect = rng_range(2, 3);
		nsel = ncorrect;
		for (i = 0; i < ncorrect;) {
			unsigned long k = rng_range(0, nopt - 1);

			if (!correct[k]) {
				correct[k] = 1;
				i++;
			}
		}
	} else {
		/* key position uniform; the key must not be the longest option
		 * (cue-longest-option), so give it the shortest text */
		unsigned long k = rng_range(0, nopt - 1), s = 0;

		for (i = 1; i < nopt; i++)
			if (opt[i].len < opt[s].len)
				s = i;
		if (s != k) {
			struct text tmp = opt[k];

			opt[k] = opt[s];
			opt[s] = tmp;
		}
		correct[k] = 1;
	}

	W(xmlTextWriterStartElement(w, BAD_CAST "question"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST(multiple ? "multiple" : "single")));
	if (multiple) {
		snprintf(num, sizeof(num), "%lu", nsel);
		W(xmlTextWriterWriteAttribute(w, BAD_CAST "select", BAD_CAST num));
	}
	snprintf(num, sizeof(num), "Synthetic exam %lu, question %lu", qno / 50 + 1, qno % 50 + 1);
	W(write_text_el(w, "source", num));
	tag = rng_range(0, NTAGS - 1);
	W(write_text_el(w, "tag", tags[tag]));
	if (prof->max_tags > 1 && rng_range(0, 1))  /* a second, different tag */
		W(write_text_el(w, "tag", tags[(tag + rng_range(1, NTAGS - 1)) % NTAGS]));
	W(write_stem(w, qno, nsel));
	if (g->error_at == qno + 1) {
		/* Flushed, the writer has sent every newline before this element's
		 * indentation: the element starts on the next line. */
		W(xmlTextWriterFlush(w));
		g->error_line = g->out->lines + 1;
		W(write_text_el(w, "hint", "An element the schema does not allow here."));
	}
	for (i = 0; i < nopt; i++) {
		W(xmlTextWriterStartElement(w, BAD_CAST "option"));
		if (correct[i])
			W(xmlTextWriterWriteAttribute(w, BAD_CAST "correct", BAD_CAST "true"));
		W(write_text_el(w, "text", opt[i].buf));
		W(write_rationale(w, correct[i]));
		W(xmlTextWriterEndElement(w));
	}
	W(write_explanation(w));
	return xmlTextWriterEndElement(w);
}

static int write_bank(xmlTextWriterPtr w, struct gen *g)
{
	unsigned long q;
	char name[128], nw[32];
	struct text t;

	W(xmlTextWriterSetIndent(w, 1));
	W(xmlTextWriterSetIndentString(w, BAD_CAST "  "));
	W(xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	W(xmlTextWriterStartElement(w, BAD_CAST "bank"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "synthetic"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "1"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "xml:lang", BAD_CAST "en"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:xsi",
				      BAD_CAST "http://www.w3.org/2001/XMLSchema-instance"));
	W(xmlTextWriterWriteAttribute(w, BAD_CAST "xsi:noNamespaceSchemaLocation",
				      BAD_CAST "../../schema/qbank.xsd"));
	snprintf(name, sizeof(name), "Synthetic bank of %lu questions", g->n);
	W(write_text_el(w, "title", name));
	W(write_text_el(w, "description",
			"Generated by qbank-gen for the benchmark: random technical words, "
			"realistic sizes, lint-clean."));
	for (q = 0; q < g->n; q++) {
		if (q % PER_PART == 0) {
			if (q > 0) {
				W(xmlTextWriterEndElement(w));  /* category */
				W(xmlTextWriterEndElement(w));  /* part */
			}
			snprintf(name, sizeof(name), "Part %lu", q / PER_PART + 1);
			W(xmlTextWriterStartElement(w, BAD_CAST "category"));
			W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name));
		} else if (q % PER_CATEGORY == 0) {
			W(xmlTextWriterEndElement(w));
		}
		if (q % PER_CATEGORY == 0) {
			number_word(nw, sizeof(nw), q / PER_CATEGORY);
			snprintf(name, sizeof(name), "Topic %lu: %s", q / PER_CATEGORY + 1, nw);
			W(xmlTextWriterStartElement(w, BAD_CAST "category"));
			W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name));
			text_clear(&t);
			text_words(&t, rng_range(8, 16), 1);
			text_add(&t, ".");
			W(write_text_el(w, "description", t.buf));
		}
		W(write_question(w, g, q));
	}
	W(xmlTextWriterEndDocument(w));  /* closes every open element */
	return xmlTextWriterFlush(w);
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

static int set_profile(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].name, name) == 0) {
			prof = &profiles[i];
			return 0;
		}
	return -1;
}

static void usage(FILE *f)
{
	fputs("usage: qbank-gen [-n QUESTIONS] [-p PROFILE] [-s SEED] [-e QUESTION] [-o FILE]\n"
	      "  -n, --questions N   number of questions (default 1000)\n"
	      "  -p, --profile P     markup (default: markup-heavy, the original benchmark bank)\n"
	      "                      or text (plain text, about 1.6 KB a question)\n"
	      "  -s, --seed S        random seed (default 1)\n"
	      "  -e, --error-at K    put one schema error into question K (1-based)\n"
	      "  -o, --output FILE   write to FILE instead of standard output\n", f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "questions", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "profile", required_argument, NULL, 'p' },
		{ "error-at", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gen g = { 1000, 0, 0, NULL };
	struct out o = { stdout, 0, 0 };
	unsigned long seed = 1;
	const char *path = NULL;
	xmlOutputBufferPtr ob;
	xmlTextWriterPtr w;
	int c, rc;

	while ((c = getopt_long(argc, argv, "n:p:s:e:o:h", longopts, NULL)) != -1) {
		if (c == 'n' && parse_ulong(optarg, &g.n) == 0)
			continue;
		if (c == 's' && parse_ulong(optarg, &seed) == 0)
			continue;
		if (c == 'e' && parse_ulong(optarg, &g.error_at) == 0)
			continue;
		if (c == 'p' && set_profile(optarg) == 0)
			continue;
		if (c == 'o') {
			path = optarg;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	if (optind < argc || g.n == 0 || g.error_at > g.n) {
		usage(stderr);
		return 2;
	}
	rng_state = (uint64_t)seed;
	if (path && !(o.f = fopen(path, "wb"))) {
		fprintf(stderr, "qbank-gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	g.out = &o;
	ob = xmlOutputBufferCreateIO(out_write, out_close, &o, NULL);
	w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!w) {
		fprintf(stderr, "qbank-gen: out of memory\n");
		return 1;
	}
	rc = write_bank(w, &g);
	xmlFreeTextWriter(w);
	if (rc < 0 || o.failed || fflush(o.f) != 0 || (path && fclose(o.f) != 0)) {
		fprintf(stderr, "qbank-gen: %s: write failed: %s\n", path ? path : "stdout",
			strerror(errno));
		return 1;
	}
	if (g.error_at)
		fprintf(stderr, "qbank-gen: schema error in question %lu at line %lu\n",
			g.error_at, g.error_line);
	return 0;
}
