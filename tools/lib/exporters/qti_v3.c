/* QTI 3.0's names for QTI 2.1's: the writer's rename hook (../xmlw.h)
 * through which qti_item.c and export_qti21.c (its QTI 3.0 row) write
 * QTI 3.0 documents with the same calls as QTI 2.1 ones. QTI 3.0 prefixes every QTI element with
 * "qti-" and spells element and attribute names in kebab case; HTML and
 * MathML names are the same in both, so a name missing from the tables is
 * written as it is. A QTI 2.1 name added to qti_item.c but not here comes
 * out unchanged, which the QTI 3.0 schema rejects (tests/export/qti30). */
#include "qti_internal.h"

#include <stdlib.h>
#include <string.h>

/* Keep both tables sorted by the QTI 2.1 name (strcmp order):
 * qti_v3_rename searches them and a unit test checks the order. */
static const struct qti_v3_name elements[] = {
	{ "assessmentItem", "qti-assessment-item" },
	{ "assessmentItemRef", "qti-assessment-item-ref" },
	{ "assessmentSection", "qti-assessment-section" },
	{ "assessmentTest", "qti-assessment-test" },
	{ "baseValue", "qti-base-value" },
	{ "choiceInteraction", "qti-choice-interaction" },
	{ "correct", "qti-correct" },
	{ "correctResponse", "qti-correct-response" },
	{ "defaultValue", "qti-default-value" },
	{ "equal", "qti-equal" },
	{ "extendedTextInteraction", "qti-extended-text-interaction" },
	{ "index", "qti-index" },
	{ "isNull", "qti-is-null" },
	{ "itemBody", "qti-item-body" },
	{ "mapEntry", "qti-map-entry" },
	{ "mapResponse", "qti-map-response" },
	{ "mapping", "qti-mapping" },
	{ "match", "qti-match" },
	{ "matchInteraction", "qti-match-interaction" },
	{ "member", "qti-member" },
	{ "modalFeedback", "qti-modal-feedback" },
	{ "multiple", "qti-multiple" },
	{ "ordered", "qti-ordered" },
	{ "outcomeDeclaration", "qti-outcome-declaration" },
	{ "outcomeProcessing", "qti-outcome-processing" },
	{ "prompt", "qti-prompt" },
	{ "responseCondition", "qti-response-condition" },
	{ "responseDeclaration", "qti-response-declaration" },
	{ "responseElse", "qti-response-else" },
	{ "responseElseIf", "qti-response-else-if" },
	{ "responseIf", "qti-response-if" },
	{ "responseProcessing", "qti-response-processing" },
	{ "rubricBlock", "qti-rubric-block" },
	{ "setOutcomeValue", "qti-set-outcome-value" },
	{ "simpleAssociableChoice", "qti-simple-associable-choice" },
	{ "simpleChoice", "qti-simple-choice" },
	{ "simpleMatchSet", "qti-simple-match-set" },
	{ "sum", "qti-sum" },
	{ "testPart", "qti-test-part" },
	{ "testVariables", "qti-test-variables" },
	{ "textEntryInteraction", "qti-text-entry-interaction" },
	{ "value", "qti-value" },
	{ "variable", "qti-variable" },
	{ "weight", "qti-weight" },
};

static const struct qti_v3_name attributes[] = {
	{ "baseType", "base-type" },
	{ "caseSensitive", "case-sensitive" },
	{ "defaultValue", "default-value" },
	{ "expectedLength", "expected-length" },
	{ "expectedLines", "expected-lines" },
	{ "lowerBound", "lower-bound" },
	{ "mapKey", "map-key" },
	{ "mappedValue", "mapped-value" },
	{ "matchMax", "match-max" },
	{ "maxAssociations", "max-associations" },
	{ "maxChoices", "max-choices" },
	{ "minChoices", "min-choices" },
	{ "navigationMode", "navigation-mode" },
	{ "normalMaximum", "normal-maximum" },
	{ "normalMinimum", "normal-minimum" },
	{ "outcomeIdentifier", "outcome-identifier" },
	{ "responseIdentifier", "response-identifier" },
	{ "showHide", "show-hide" },
	{ "submissionMode", "submission-mode" },
	{ "timeDependent", "time-dependent" },
	{ "toleranceMode", "tolerance-mode" },
	{ "upperBound", "upper-bound" },
	{ "variableIdentifier", "variable-identifier" },
	{ "weightIdentifier", "weight-identifier" },
};

const struct qti_v3_name *const qti_v3_tables[2] = { elements, attributes };
const size_t qti_v3_sizes[2] = { sizeof(elements) / sizeof(elements[0]),
				 sizeof(attributes) / sizeof(attributes[0]) };

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qti_v3_name *)elem)->v2);
}

const char *qti_v3_rename(int attr, const char *name)
{
	const struct qti_v3_name *n;

	attr = attr != 0;
	n = bsearch(name, qti_v3_tables[attr], qti_v3_sizes[attr], sizeof(*n), cmp_name);
	return n ? n->v3 : name;
}
