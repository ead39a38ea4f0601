/* The rule table's ids as names the compiler checks: QB_RULE_KEY_MISSING is
 * the row of "key-missing" in qb_rules (rules.c), whose index it is. Code
 * that reports a finding names its rule by one of these, never by a string,
 * so that a misspelt rule does not build. The ids themselves are written
 * once, in the table.
 * QB_RULE_LIST holds the names in the table's order (sorted by id, '-'
 * written '_'); tests/unit/check_tables.c fails when a name and the id of
 * its row disagree. Adding a rule: a line here, in its sorted place, and
 * its row in rules.c. Nothing here is allocated. */
#ifndef QB_RULE_IDS_H
#define QB_RULE_IDS_H

#define QB_RULE_LIST(X)                 \
	X(BANK_KEY_POSITION_BALANCE)    \
	X(CUE_ABSOLUTE_TERMS)           \
	X(CUE_LONGEST_OPTION)           \
	X(CUE_STEM_ECHO)                \
	X(EXPLANATION_COVERAGE)         \
	X(EXPLANATION_MISSING)          \
	X(ID_DUPLICATE)                 \
	X(IMG_MISSING)                  \
	X(IMG_UNSAFE_PATH)              \
	X(IMPORT_ENCODING)              \
	X(IMPORT_FEEDBACK_DROPPED)      \
	X(IMPORT_GRADE_CHANGED)         \
	X(IMPORT_MARKUP_DROPPED)        \
	X(IMPORT_REFUSED)               \
	X(IMPORT_UNSUPPORTED_TYPE)      \
	X(KEY_ALL_CORRECT)              \
	X(KEY_MISSING)                  \
	X(KEY_MULTIPLE)                 \
	X(KEY_RATIONALE_CONFLICT)       \
	X(KEY_SELECT_MISMATCH)          \
	X(LIMIT_EXCEEDED)               \
	X(NUMERIC_TOLERANCE_MISSING)    \
	X(OPTION_ALL_OF_THE_ABOVE)      \
	X(OPTION_COUNT)                 \
	X(OPTION_DUPLICATE)             \
	X(OPTION_LETTER_REFERENCE)      \
	X(OPTION_NEAR_DUPLICATE)        \
	X(OPTION_NONE_OF_THE_ABOVE)     \
	X(OPTION_SET_REUSED)            \
	X(QUESTION_DUPLICATE)           \
	X(RATIONALE_MISSING)            \
	X(STEM_DUPLICATE)               \
	X(STEM_NEGATIVE_UNEMPHASIZED)   \
	X(SUPPRESSION_UNUSED)           \
	X(TARGET_CANVAS_ID)              \
	X(TARGET_CANVAS_KEY)             \
	X(TARGET_CANVAS_MATCHING_IMAGE)  \
	X(TARGET_CANVAS_NUMBER)          \
	X(TARGET_CANVAS_SHORT_CASE)      \
	X(TARGET_GIFT_CASE)              \
	X(TARGET_GIFT_EMPTY)             \
	X(TARGET_GIFT_ESSAY)             \
	X(TARGET_GIFT_FRACTION)          \
	X(TARGET_GIFT_IMAGE)             \
	X(TARGET_GIFT_KEY)               \
	X(TARGET_GIFT_MATCHING)          \
	X(TARGET_GIFT_NUMBER)            \
	X(TARGET_GIFT_POINTS)            \
	X(TARGET_GIFT_SHAPE)             \
	X(TARGET_GIFT_SHUFFLE)           \
	X(TARGET_GIFT_TAG)               \
	X(TARGET_GIFT_UNIT)              \
	X(TARGET_MARKDOWN_KEY)           \
	X(TARGET_MOODLE_EMPTY)           \
	X(TARGET_MOODLE_FRACTION)        \
	X(TARGET_MOODLE_KEY)             \
	X(TARGET_MOODLE_MATCHING)        \
	X(TARGET_MOODLE_NUMBER)          \
	X(TARGET_MOODLE_POINTS)          \
	X(TARGET_MOODLE_SHAPE)           \
	X(TARGET_QTI_IDENTIFIER)         \
	X(TARGET_QTI_KEY)                \
	X(TARGET_QTI_NUMBER)             \
	X(TEXT_EMPTY)                   \
	X(TYPE_SHAPE)                   \
	X(XML_DOCTYPE)                  \
	X(XML_ENCODING)                 \
	X(XML_SCHEMA)                   \
	X(XML_SYNTAX)

enum qb_rule_key {
#define QB_RULE_KEY_(name) QB_RULE_##name,
	QB_RULE_LIST(QB_RULE_KEY_)
#undef QB_RULE_KEY_
	QB_RULE_COUNT   /* the number of rows; as a key: no row (a user rule) */
};

#endif
