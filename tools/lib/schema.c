#include <string.h>

#include <libxml/xmlschemas.h>

#include "reader.h"

/* schema/qbank.xsd, built into the library by the Makefile (build/gen/). */
extern const unsigned char qb_schema_xsd[];
extern const size_t qb_schema_xsd_len;

static void schema_error(void *ctx, xmlErrorPtr e)
{
	struct qb_error *err = ctx;

	if (e && e->level != XML_ERR_WARNING)
		qb_error_set(err, QB_EINVAL, "built-in schema, line %d: %s", e->line,
			     e->message ? e->message : "error");
}

int qb_schema_load(xmlSchemaPtr *out, struct qb_error *err)
{
	xmlSchemaParserCtxtPtr pc;
	xmlSchemaPtr s;

	*out = NULL;
	pc = xmlSchemaNewMemParserCtxt((const char *)qb_schema_xsd, (int)qb_schema_xsd_len);
	if (!pc)
		return QB_ENOMEM;
	xmlSchemaSetParserStructuredErrors(pc, schema_error, err);
	s = xmlSchemaParse(pc);
	xmlSchemaFreeParserCtxt(pc);
	if (!s) {
		qb_error_set(err, QB_EINVAL, "the built-in bank schema does not compile");
		return QB_EINVAL;
	}
	*out = s;
	return 0;
}

void qb_schema_free(xmlSchemaPtr schema)
{
	if (schema)
		xmlSchemaFree(schema);
}
