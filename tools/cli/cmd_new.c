/* qbank new FILE: a commented starter bank with one question of each type.
 * The template is tools/cli/starter.xml (embedded at build time); this file
 * gives it the new bank's id, question ids and the schema location, through
 * libxml2 so that every value is escaped properly, and writes it atomically. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>

#include "../lib/atomic.h"
#include "../lib/core/buf.h"
#include "cli.h"

extern const unsigned char qb_starter_xml[];
extern const size_t qb_starter_xml_len;

#define TEMPLATE_PREFIX "starter-"
#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"

/* The bank id: the file's name without ".xml", made an NCName (other
 * characters become '-'; a name that cannot start one gets "bank-"). */
static int bank_id(struct qb_buf *out, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n, i;
	int rc = 0;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".xml") == 0)
		n -= 4;
	if (n == 0 || !((base[0] >= 'A' && base[0] <= 'Z') || (base[0] >= 'a' && base[0] <= 'z') ||
			base[0] == '_'))
		rc = qb_buf_adds(out, "bank-");
	for (i = 0; i < n && !rc; i++) {
		char c = base[i];
		int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '_' || c == '.';

		rc = qb_buf_addc(out, ok ? c : '-');
	}
	return rc;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where editors should look for the schema, seen from the new file:
 * a schema/qbank.xsd in the file's folder or above it (a project that keeps
 * the schema beside its banks, like qbank's own tree), else the installed
 * copy next to this binary (PREFIX/share/qbank/qbank.xsd), else the bare
 * name, which the file's comment explains. */
static int schema_location(struct qb_buf *out, const char *file)
{
	char dir[PATH_MAX], buf[PATH_MAX], exe[PATH_MAX], *copy = strdup(file), *d;
	struct qb_buf up = QB_BUF_INIT, cand = QB_BUF_INIT;
	xmlChar *uri;
	ssize_t n;
	int rc = 0;

	if (!copy)
		return QB_ENOMEM;
	d = dirname(copy);
	if (realpath(d, dir)) {
		for (;;) {
			qb_buf_clear(&cand);
			if ((rc = qb_buf_printf(&cand, "%s/schema/qbank.xsd", strcmp(dir, "/") ? dir : "")))
				goto done;
			if (is_file(cand.ptr)) {
				rc = qb_buf_printf(out, "%sschema/qbank.xsd", up.len ? up.ptr : "");
				goto done;
			}
			if (strcmp(dir, "/") == 0)
				break;
			*strrchr(dir, '/') = '\0';
			if (!dir[0]) {
				dir[0] = '/';
				dir[1] = '\0';
			}
			if ((rc = qb_buf_adds(&up, "../")))
				goto done;
		}
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		qb_buf_clear(&cand);
		if ((rc = qb_buf_printf(&cand, "%s/../share/qbank/qbank.xsd", dirname(exe))))
			goto done;
		if (realpath(cand.ptr, buf) && is_file(buf)) {
			uri = xmlPathToURI((const xmlChar *)buf);
			rc = uri ? qb_buf_adds(out, (const char *)uri) : QB_ENOMEM;
			xmlFree(uri);
			goto done;
		}
	}
	rc = qb_buf_adds(out, "qbank.xsd");
done:
	qb_buf_dispose(&up);
	qb_buf_dispose(&cand);
	free(copy);
	return rc;
}

/* Renames the template's question ids "starter-TYPE" to "ID-TYPE". */
static int rename_questions(xmlNode *n, const char *id)
{
	struct qb_buf v = QB_BUF_INIT;
	int rc = 0;

	for (; n && !rc; n = n->next) {
		xmlChar *old;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (xmlStrcmp(n->name, (const xmlChar *)"question") == 0 &&
		    (old = xmlGetProp(n, (const xmlChar *)"id")) != NULL) {
			const char *rest = (const char *)old;

			if (strncmp(rest, TEMPLATE_PREFIX, strlen(TEMPLATE_PREFIX)) == 0)
				rest += strlen(TEMPLATE_PREFIX);
			qb_buf_clear(&v);
			rc = qb_buf_printf(&v, "%s-%s", id, rest);
			if (!rc && !xmlSetProp(n, (const xmlChar *)"id", (const xmlChar *)v.ptr))
				rc = QB_ENOMEM;
			xmlFree(old);
		} else {
			rc = rename_questions(n->children, id);
		}
	}
	qb_buf_dispose(&v);
	return rc;
}

/* The template with this bank's values, serialised into *MEM (xmlFree it). */
static int fill_template(xmlChar **mem, int *size, const char *id, const char *schema)
{
	xmlDoc *doc;
	xmlNode *root;
	xmlNs *xsi;
	int rc = QB_ENOMEM;

	doc = xmlReadMemory((const char *)qb_starter_xml, (int)qb_starter_xml_len, "starter.xml",
			    "UTF-8", XML_PARSE_NONET);
	if (!doc)
		return QB_EINVAL;
	root = xmlDocGetRootElement(doc);
	xsi = root ? xmlSearchNsByHref(doc, root, (const xmlChar *)XSI_NS) : NULL;
	if (!root || !xsi) {
		rc = QB_EINVAL;
		goto done;
	}
	if (!xmlSetProp(root, (const xmlChar *)"id", (const xmlChar *)id) ||
	    !xmlSetNsProp(root, xsi, (const xmlChar *)"noNamespaceSchemaLocation",
			  (const xmlChar *)schema))
		goto done;
	if (rename_questions(root->children, id))
		goto done;
	xmlDocDumpMemoryEnc(doc, mem, size, "UTF-8");
	rc = *mem ? 0 : QB_ENOMEM;
done:
	xmlFreeDoc(doc);
	return rc;
}

static const struct qb_opt new_opts[] = {
	/* name, short, argument, help, field, set, flags */
	{ "schema-location", 0, "URI", "the xsi:noNamespaceSchemaLocation editors follow (default:\n"
	  "schema/qbank.xsd found upward, else the installed schema)", 0, qb_opt_string, 0 },
	{ "help", 'h', NULL, NULL, 0, qb_opt_help, 0 },
};

const struct qb_opts cmd_new_opts = {
	"new", "write a commented starter bank with one question of each type",
	"qbank new [--schema-location URI] FILE", new_opts, sizeof(new_opts) / sizeof(new_opts[0]), 25,
	"Never overwrites FILE (exit 2 when it exists); FILE - writes to standard output.",
	"unknown or incomplete option '%s'", 0
};

int cmd_new(int argc, char **argv)
{
	struct qb_buf id = QB_BUF_INIT, schema = QB_BUF_INIT;
	struct qb_error err = { 0, "" };
	struct qb_atomic *a = NULL;
	const char *file, *schema_opt = NULL;   /* the only option: the argument struct */
	xmlChar *mem = NULL;
	struct stat st;
	int first, size = 0, rc = QB_EXIT_USAGE, to_stdout;

	first = qb_opts_parse(&cmd_new_opts, &schema_opt, argc, argv, &rc);
	if (first < 0)
		goto done;
	if (argc - first != 1) {
		rc = cli_usage_error("new", "name one FILE to create (for example: qbank new bank/course.xml)");
		goto done;
	}
	file = argv[first];
	to_stdout = strcmp(file, "-") == 0;
	if (!to_stdout && lstat(file, &st) == 0) {
		cli_error("%s: already exists; 'qbank new' never overwrites a file: choose another "
			  "name, or move the file away first", file);
		goto done;
	}
	if (bank_id(&id, to_stdout ? "starter" : file) ||
	    (schema_opt ? qb_buf_adds(&schema, schema_opt) : schema_location(&schema, to_stdout ? "./-" : file))) {
		cli_error("out of memory");
		goto done;
	}
	if (fill_template(&mem, &size, id.ptr, schema.ptr)) {
		cli_error("cannot fill in the starter bank (out of memory?)");
		goto done;
	}
	if (qb_atomic_open(&a, to_stdout ? NULL : file, &err)) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(err.code));
		goto done;
	}
	if (fwrite(mem, 1, (size_t)size, qb_atomic_file(a)) != (size_t)size) {
		cli_error("%s: cannot write: %s", file, strerror(errno));
		qb_atomic_abort(a);
		a = NULL;
		goto done;
	}
	/* Checked again just before the rename: a file that appeared meanwhile
	 * is still not overwritten. */
	if (!to_stdout && lstat(file, &st) == 0) {
		cli_error("%s: already exists; 'qbank new' never overwrites a file", file);
		qb_atomic_abort(a);
		a = NULL;
		goto done;
	}
	rc = qb_atomic_commit(a, &err);
	a = NULL;
	if (rc) {
		cli_error("%s", err.msg[0] ? err.msg : qb_error_str(rc));
		rc = QB_EXIT_USAGE;
		goto done;
	}
	if (!to_stdout)
		fprintf(stderr, "qbank: created %s: a starter bank with one question of each type; "
			"replace them, then run 'qbank lint %s'\n", file, file);
	rc = QB_EXIT_OK;
done:
	xmlFree(mem);
	qb_buf_dispose(&id);
	qb_buf_dispose(&schema);
	return rc;
}
