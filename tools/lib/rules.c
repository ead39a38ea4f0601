#include "rules.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rules/rules_impl.h"
#include "text.h"

/* Keep this table sorted by id (strcmp order): qb_rule_find() searches it
 * and tests/unit/check_tables.c fails when it is not. Each row sits at the
 * index of its name in rule_ids.h (QB_RULE_LIST, in the same order), which
 * the same test checks against the id. Every rule needs the golden cases
 * tests/golden/lint/<id>/bad/ and good/ (tests/unit/check_rules.c). Ids are
 * stable: never rename or reuse one. This table is the one place where an
 * id is written as a string (tools/check-includes.sh checks it). */
const struct qb_rule qb_rules[QB_RULE_COUNT] = {
	[QB_RULE_BANK_KEY_POSITION_BALANCE] = { "bank-key-position-balance", QB_SEV_INFO,
	  "correct answers pile up on one option position across the bank",
	  "When most keys of single-answer questions sit at the same position (say C), test-wise "
	  "candidates guess that position, and printed exams keep the source order. Counted over the "
	  "single questions with exactly one correct option; by chance each position of a k-option "
	  "question holds the key with probability 1/k. A position is reported (once per run, the "
	  "worst one) when, with at least 8 such questions, it holds at least 1.5 times its expected "
	  "share AND the excess is significant: Hoeffding's bound exp(-2t^2/n) on an excess of t keys "
	  "over n questions, Bonferroni-corrected over the positions, falls below 1 percent. For 30 "
	  "four-option questions that is 17 keys or more at one position.\n"
	  "Bad: 20 of 30 keys are option C.\nGood: keys spread over A-D roughly evenly.",
	  qb_rule_key_position_count, qb_rule_key_position_finish },
	[QB_RULE_CUE_ABSOLUTE_TERMS] = { "cue-absolute-terms", QB_SEV_INFO,
	  "absolute terms (always, never) appear only in distractors",
	  "Absolute words (always, never, all, none, only, every, everything, nothing, completely, "
	  "entirely, absolutely) are a cue: test-wise candidates eliminate options containing them. "
	  "Reported once per question, naming the options, when such words appear in wrong options "
	  "and in no correct one ('all of the above' and 'none of the above' have rules of their "
	  "own; hyphenated words such as all-reduce do not count).\n"
	  "Bad: distractors 'It always converges', 'It never fails'; key 'It usually converges'.\n"
	  "Good: no absolute terms, or absolute terms in the key as well.",
	  qb_rule_cue_absolute_terms, NULL },
	[QB_RULE_CUE_LONGEST_OPTION] = { "cue-longest-option", QB_SEV_WARNING,
	  "the only correct option is clearly the longest",
	  "Item writers tend to qualify the correct option until it is the longest, and candidates "
	  "learn to pick the longest option. Checked on single questions with exactly one correct "
	  "option: flagged when the key is at least 1.5 times as long as the longest distractor AND at "
	  "least 10 characters longer (normalised text, in characters), so that short options "
	  "('DDP' against 'DP') do not count.\n"
	  "Bad: key 'Gradient compression, which quantises or sparsifies gradients before the all-reduce' "
	  "against one-word distractors.\nGood: options of similar length.",
	  qb_rule_cue_longest_option, NULL },
	[QB_RULE_CUE_STEM_ECHO] = { "cue-stem-echo", QB_SEV_INFO,
	  "content words of the stem appear again only in the key",
	  "Words of the stem repeated in the correct option and in no distractor (Haladyna's 'clang "
	  "association') let a candidate find the key by matching words instead of knowing the "
	  "answer. Checked on single questions with exactly one correct option and at least two "
	  "distractors: words of the stem of at least 5 letters (not function words such as "
	  "'which' or 'following', not numbers), found as whole words in the key's normalised text "
	  "and in no distractor's. Reported once per question when at least two such words echo "
	  "(one shared word is usually just the subject of the question), naming up to three.\n"
	  "Bad: stem 'Which effect describes a gradient shrinking through deep layers?', key "
	  "'The gradient shrinking effect'.\nGood: key 'Vanishing gradients', or the echoed words "
	  "in a distractor as well.",
	  qb_rule_cue_stem_echo, NULL },
	[QB_RULE_EXPLANATION_COVERAGE] = { "explanation-coverage", QB_SEV_ERROR,
	  "explanation or rationale coverage is below the configured minimum",
	  "Reported once per run when --min-explanation-coverage or --min-rationale-coverage (or the "
	  "configuration file) sets a threshold the bank does not reach.\n"
	  "Bad: --min-explanation-coverage 100 with 29 of 31 questions explained.\n"
	  "Good: every question has an <explanation>.",
	  NULL, NULL },
	[QB_RULE_EXPLANATION_MISSING] = { "explanation-missing", QB_SEV_WARNING,
	  "a question has no explanation",
	  "The explanation is the general feedback shown after the attempt and the teacher's note in "
	  "printed answer keys. Questions without one teach nothing when answered wrongly.\n"
	  "Bad: <question ...><stem>...</stem><option>...</option></question>\n"
	  "Good: ...<explanation>Ring all-reduce sends 2(N-1)/N of the data per worker.</explanation>",
	  qb_rule_explanation_missing, NULL },
	[QB_RULE_ID_DUPLICATE] = { "id-duplicate", QB_SEV_ERROR,
	  "a question id is used twice (names the first place)",
	  "Question ids identify questions across exports (QTI identifiers, Moodle idnumbers) and must "
	  "be unique across every file linted together. The finding names the first use.\n"
	  "Bad: two <question id=\"pt-dist-01\">.\nGood: pt-dist-01 and pt-dist-02.",
	  qb_rule_id_duplicate, NULL },
	[QB_RULE_IMG_MISSING] = { "img-missing", QB_SEV_ERROR,
	  "an img src names a file that does not exist",
	  "Every image must be a file inside the bank's folder, named relative to the bank file; "
	  "a missing file (or a folder, a FIFO, anything but a regular file) is reported here and "
	  "never read or packaged.\n"
	  "Bad: <img src=\"img/ring.png\" alt=\"Ring\"/> with no file img/ring.png beside the bank.\n"
	  "Good: the file img/ring.png next to the bank file.",
	  qb_rule_img_missing, NULL },
	[QB_RULE_IMG_UNSAFE_PATH] = { "img-unsafe-path", QB_SEV_ERROR,
	  "an img src is absolute, a URL, or leaves the bank's folder",
	  "Exports read and package image files, and banks arrive in pull requests: a src that "
	  "names /etc/passwd, ../../secrets or http://... must never be read. src is a relative "
	  "path below the bank file's folder, with / between folders, no '..', no ':' and no "
	  "backslash; a symbolic link out of the folder is refused too.\n"
	  "Bad: <img src=\"../private/key.png\" alt=\"x\"/> or <img src=\"https://example.org/a.png\" alt=\"x\"/>\n"
	  "Good: <img src=\"img/ring-allreduce.png\" alt=\"Ring all-reduce\"/>",
	  qb_rule_img_unsafe_path, NULL },
	[QB_RULE_IMPORT_ENCODING] = { "import-encoding", QB_SEV_WARNING,
	  "qbank import read bytes that are not UTF-8 as Windows-1252",
	  "Reported by qbank import, not by lint: a source file that is not UTF-8 (GIFT or Aiken "
	  "saved by an older editor) has its invalid bytes read as Windows-1252 (Latin-1 where "
	  "that has no character) and control characters XML cannot hold dropped, so that the "
	  "bank is UTF-8; check the question's text. The question is imported; the exit status "
	  "is 1.\n"
	  "Bad: a GIFT file saved as Windows-1252 (Caf\\xE9).\n"
	  "Good: the file converted with iconv -f WINDOWS-1252 -t UTF-8 first.",
	  NULL, NULL },
	[QB_RULE_IMPORT_FEEDBACK_DROPPED] = { "import-feedback-dropped", QB_SEV_WARNING,
	  "qbank import left out feedback that a bank has no place for (no mark changes)",
	  "Reported by qbank import, not by lint: a GIFT or Moodle short-answer or numerical "
	  "question can give each accepted answer its own feedback, list 0 % answers only to give "
	  "them feedback, and (GIFT '~#...', Moodle's '*' answer) give feedback for every other "
	  "answer. A bank's short and numeric questions list accepted answers only, so these are "
	  "left out; no mark changes. The finding names the question and the answer; the exit "
	  "status is 1.\n"
	  "Bad: ::Q::Name the class. {=DDP#Right, the short name. =%0%DP#That is the old one.}\n"
	  "Good: ::Q::Name the class. {=DDP ####DDP is the short name; DP is the old one.}",
	  NULL, NULL },
	[QB_RULE_IMPORT_GRADE_CHANGED] = { "import-grade-changed", QB_SEV_WARNING,
	  "qbank import changed how a question is marked: the bank cannot express its partial credit",
	  "Reported by qbank import, not by lint. A bank marks a single question by its one key, a "
	  "multiple question by equal shares of its keys, and accepts a short or numeric answer at "
	  "full marks or not at all. A source answer worth part of the mark (GIFT %50%, Moodle "
	  "fractions) is therefore changed, and the finding says what the bank does instead (a "
	  "partial short or numeric answer is left out). The question is imported; the exit status "
	  "is 1.\n"
	  "Bad: ::Q::Best animal?{=Frog =%50%Cat}\n"
	  "Good: ::Q::Best animal?{=Frog =Toad}",
	  NULL, NULL },
	[QB_RULE_IMPORT_MARKUP_DROPPED] = { "import-markup-dropped", QB_SEV_WARNING,
	  "qbank import reduced a text's HTML markup to its text",
	  "Reported by qbank import, not by lint: HTML in a source text (GIFT [html], [moodle] "
	  "and [markdown] texts, Moodle's editor) is read with libxml2's HTML parser; what has an "
	  "equivalent in a bank (em, strong, code, sub, sup, br, p, pre, lists, images in Moodle "
	  "XML, TeX) becomes the bank's markup, and what has none (tables, links, styled spans, "
	  "fonts, images in GIFT, or a setting a bank cannot hold, such as an essay's response "
	  "template) is reduced to its text or left out; the finding names the question and what "
	  "went. The question is imported; the exit status is 1.\n"
	  "Bad: ::Q::[html]Match the <font color=red>activity</font> to its description.{...}\n"
	  "Good: ::Q::[html]Match the <b>activity</b> to its description.{...}",
	  NULL, NULL },
	[QB_RULE_IMPORT_REFUSED] = { "import-refused", QB_SEV_ERROR,
	  "qbank import left out a question its source does not state completely",
	  "Reported by qbank import, not by lint: a question of an Aiken, GIFT or Moodle XML file "
	  "that does not say what it means (an Aiken question without an ANSWER line, or whose "
	  "ANSWER names no option; fewer than two options) is left out of the imported bank, and "
	  "the finding names its line. The other questions of the file are imported; the exit "
	  "status is 1.\n"
	  "Bad: an Aiken question with options A) to C) and 'ANSWER: D'.\n"
	  "Good: 'ANSWER: B', naming one of the options.",
	  NULL, NULL },
	[QB_RULE_IMPORT_UNSUPPORTED_TYPE] = { "import-unsupported-type", QB_SEV_WARNING,
	  "qbank import left out a question whose type a bank has no equivalent for",
	  "Reported by qbank import, not by lint: descriptions, cloze (multianswer), calculated, "
	  "drag-and-drop, gapselect, ordering, random and plugin question types have no bank "
	  "equivalent; the question is left out, naming its file, line and type, and nothing is "
	  "guessed. The exit status is 1.\n"
	  "Bad: a GIFT block without an answer block (a Moodle description).\n"
	  "Good: a GIFT question with its {answer block}.",
	  NULL, NULL },
	[QB_RULE_KEY_ALL_CORRECT] = { "key-all-correct", QB_SEV_WARNING,
	  "every option of a multiple-answer question is correct",
	  "A multiple-answer question whose options are all correct rewards selecting everything and "
	  "cannot be scored with negative marks.\n"
	  "Bad: four options, all correct=\"true\".\nGood: at least one wrong option.",
	  qb_rule_key_all_correct, NULL },
	[QB_RULE_KEY_MISSING] = { "key-missing", QB_SEV_ERROR,
	  "a choice question has no correct option",
	  "Single and multiple questions need at least one option with correct=\"true\"; without it "
	  "every export scores every answer as wrong.\n"
	  "Bad: <option><text>DDP</text></option> ... with no correct option.\n"
	  "Good: <option correct=\"true\"><text>DDP</text></option>",
	  qb_rule_key_missing, NULL },
	[QB_RULE_KEY_MULTIPLE] = { "key-multiple", QB_SEV_ERROR,
	  "a single-answer question has more than one correct option",
	  "type=\"single\" allows exactly one correct option. Use type=\"multiple\" when several are correct.\n"
	  "Bad: type=\"single\" with two correct=\"true\".\nGood: type=\"multiple\" select=\"2\".",
	  qb_rule_key_multiple, NULL },
	[QB_RULE_KEY_RATIONALE_CONFLICT] = { "key-rationale-conflict", QB_SEV_ERROR,
	  "a rationale contradicts the key (Correct on a wrong option, or the reverse)",
	  "A rationale that opens with Correct, 'Right.' or Yes on a wrong option, or with Incorrect, "
	  "Wrong, 'No,' or 'Not quite' on a correct one, means the key or the feedback is wrong "
	  "(case does not matter; Right and No count only when punctuation follows, so 'No single "
	  "device ...' is no verdict). For truefalse questions the rationale for the side that is "
	  "the answer must not open with Incorrect, and the other side's not with Correct.\n"
	  "Bad: <option><text>Data shuffling</text><rationale>Correct. ...</rationale></option>\n"
	  "Good: <option><text>Data shuffling</text><rationale>Incorrect. ...</rationale></option>",
	  qb_rule_key_rationale_conflict, NULL },
	[QB_RULE_KEY_SELECT_MISMATCH] = { "key-select-mismatch", QB_SEV_ERROR,
	  "select, or 'Select N' in the stem, disagrees with the number of correct options",
	  "The select attribute and wording such as 'Select 3', 'choose two', 'Pick 2 options', "
	  "'select three of the following', 'Choose two reasons why ...', 'Identify three causes "
	  "that ...', 'Which two of the following ...' or 'Which two statements are true?' anywhere "
	  "in the stem (digits, or the words one to ten, after select, choose, pick, mark, tick, "
	  "identify or which) promise a number of correct options; it must equal the number marked "
	  "correct. The finding names the options marked correct. '(Select all that apply)' "
	  "promises no number, and 'Pick 2 nodes at random' or 'Which 3 nodes run first' is not an "
	  "instruction.\n"
	  "Bad: select=\"3\" with two correct options.\nGood: select=\"3\" with three correct options.",
	  qb_rule_key_select_mismatch, NULL },
	[QB_RULE_LIMIT_EXCEEDED] = { "limit-exceeded", QB_SEV_ERROR,
	  "an id, a count or a text is over the documented limits",
	  "qbank bounds what one question may hold (README \"Limits\"): ids of at most 100 "
	  "characters (Moodle's idnumber), category names and the bank's title of at most 255 as "
	  "Moodle stores them (& < > \" written as entities, so & counts 5), at most 100 options "
	  "(and 100 answers, pairs, distractors, tags), 65,536 bytes of text and 1,000 elements "
	  "per part, images of at most 16 MiB. A question over a limit is checked no further and "
	  "never exported.\n"
	  "Bad: <question id=\"an-id-of-two-hundred-characters...\">\n"
	  "Good: <question id=\"pt-dist-07\">",
	  NULL, NULL, 1 },
	[QB_RULE_NUMERIC_TOLERANCE_MISSING] = { "numeric-tolerance-missing", QB_SEV_WARNING,
	  "a numeric answer with a fractional part has no tolerance",
	  "A numeric answer without tolerance is marked by exact equality, so a candidate who "
	  "rounds differently (0.17 or 0.1667 for 1/6) scores 0. Reported for an <answer> of a "
	  "numeric question whose value has a fractional part or an exponent and no tolerance "
	  "attribute. Whole numbers (a count of GPUs) are exact by nature and are left alone; "
	  "write tolerance=\"0\" to say that an exact decimal is meant.\n"
	  "Bad: <answer>0.167</answer>\n"
	  "Good: <answer tolerance=\"0.001\">0.167</answer>",
	  qb_rule_numeric_tolerance_missing, NULL },
	[QB_RULE_OPTION_ALL_OF_THE_ABOVE] = { "option-all-of-the-above", QB_SEV_WARNING,
	  "an option says 'all of the above'",
	  "'All of the above' can be answered from partial knowledge (two true options suffice) and "
	  "breaks when options are shuffled.\n"
	  "Bad: <option><text>All of the above</text></option>\n"
	  "Good: a multiple-answer question, or a fourth plausible option.",
	  qb_rule_option_all_of_the_above, NULL },
	[QB_RULE_OPTION_COUNT] = { "option-count", QB_SEV_WARNING,
	  "fewer than 3 or more than 6 options (fewer than 2 is an error)",
	  "Three to six options balance guessing against reading load. Fewer than two options cannot "
	  "be a choice question and is always an error.\n"
	  "Bad: a single-answer question with two options.\nGood: four options.",
	  qb_rule_option_count, NULL },
	[QB_RULE_OPTION_DUPLICATE] = { "option-duplicate", QB_SEV_ERROR,
	  "two options of one question are equal after normalisation",
	  "Options are compared after markup is stripped, Unicode NFC normalisation, case folding, "
	  "white-space collapsing and dropping trailing punctuation.\n"
	  "Bad: 'Data parallelism' and 'data parallelism.'\nGood: distinct options.",
	  qb_rule_option_duplicate, NULL },
	[QB_RULE_OPTION_LETTER_REFERENCE] = { "option-letter-reference", QB_SEV_WARNING,
	  "an option names other options by letter in a shuffled question",
	  "'Both A and C' stops making sense once options are shuffled (shuffle defaults to true).\n"
	  "Bad: <option><text>Both A and C</text></option>\n"
	  "Good: shuffle=\"false\" on the question, or a multiple-answer question.",
	  qb_rule_option_letter_reference, NULL },
	[QB_RULE_OPTION_NEAR_DUPLICATE] = { "option-near-duplicate", QB_SEV_WARNING,
	  "two options are nearly equal",
	  "Options whose normalised texts are very similar (edit similarity of 0.9 or more: 1 minus "
	  "the Levenshtein distance over the longer length, for options of up to 256 characters, in "
	  "questions of up to 26 options) are usually a copy-paste slip. Options that differ in a number ('2 bytes' and '4 bytes', "
	  "'10 mg' and '100 mg'), or where one adds a negating prefix or word to the other "
	  "('synchronous' and 'asynchronous', 'valid' and 'invalid', 'is not'), are not flagged.\n"
	  "Bad: 'Synchronous update' and 'Synchronous updates'.\n"
	  "Good: 'Synchronous updates' and 'Asynchronous updates', or clearly different options.",
	  qb_rule_option_near_duplicate, NULL },
	[QB_RULE_OPTION_NONE_OF_THE_ABOVE] = { "option-none-of-the-above", QB_SEV_WARNING,
	  "an option says 'none of the above'",
	  "'None of the above' tests only that the candidate can recognise wrong answers, and breaks "
	  "when options are shuffled.\n"
	  "Bad: <option><text>None of the above</text></option>\nGood: a fourth plausible option.",
	  qb_rule_option_none_of_the_above, NULL },
	[QB_RULE_OPTION_SET_REUSED] = { "option-set-reused", QB_SEV_INFO,
	  "the same option set, with the same key, appears under a different stem",
	  "The same options (compared as a set, in any order, after normalisation) with the same "
	  "correct options under a different stem often mean one question reworded, which lets a "
	  "candidate carry the answer from one to the other. The finding names the other place so "
	  "that an author can check. The same options with different keys ask different things and "
	  "are not reported. When a stem is empty the two cannot be told apart and are reported.\n"
	  "Bad: two questions with the same four parallelism options and the same key, asking the "
	  "same thing in other words.\n"
	  "Good: the same options, different questions with different keys.",
	  qb_rule_option_set_reused, NULL },
	[QB_RULE_QUESTION_DUPLICATE] = { "question-duplicate", QB_SEV_ERROR,
	  "two questions have the same normalised stem and the same option set",
	  "A question that appears twice (same stem, same options in any order) skews exams drawn "
	  "from the bank. The finding names the other place.\n"
	  "Bad: the same question in two files.\nGood: one copy.",
	  qb_rule_question_duplicate, NULL },
	[QB_RULE_RATIONALE_MISSING] = { "rationale-missing", QB_SEV_WARNING,
	  "options without a rationale (one finding per question, naming them)",
	  "A rationale per option explains why it is right or wrong; Moodle shows it as the answer's "
	  "feedback and QTI as choice feedback.\n"
	  "Bad: <option><text>Data shuffling</text></option>\n"
	  "Good: <option><text>Data shuffling</text><rationale>Incorrect. ...</rationale></option>",
	  qb_rule_rationale_missing, NULL },
	[QB_RULE_STEM_DUPLICATE] = { "stem-duplicate", QB_SEV_WARNING,
	  "the same normalised stem as another question, with different options",
	  "Two questions asking the same thing with different options are usually an old and a new "
	  "version of one question. The finding names the other place.\n"
	  "Bad: two questions with the stem 'What does DDP replicate?'.\nGood: one question.",
	  qb_rule_stem_duplicate, NULL },
	[QB_RULE_STEM_NEGATIVE_UNEMPHASIZED] = { "stem-negative-unemphasized", QB_SEV_WARNING,
	  "NOT, EXCEPT or LEAST in the lead-in is neither upper case nor emphasised",
	  "Candidates overlook negatives. In the lead-in, the question the stem asks (its last "
	  "sentence ending with '?', else its last sentence, never an instruction such as 'Select "
	  "two.'), write not, except and least in upper case or inside <em> or <strong>. Words such "
	  "as cannot or notable, 'at least', 'or not', 'not only', code and math, the stem's body "
	  "and a hint after the question are not flagged.\n"
	  "Bad: Which of these is not a collective?\n"
	  "Good: Which of these is NOT a collective?",
	  qb_rule_stem_negative_unemphasized, NULL },
	[QB_RULE_SUPPRESSION_UNUSED] = { "suppression-unused", QB_SEV_WARNING,
	  "an inline suppression suppresses nothing",
	  "A <!-- qbank-disable RULE -- reason --> comment before a question, or a qbank-disable-file "
	  "comment, that matches no finding is stale and hides future problems. 'qbank-disable: RULE' "
	  "and 'qbank-disable=RULE' are read as 'qbank-disable RULE'; a comment in another linter's "
	  "habit that qbank does not read ('qbank-disable-next-line', 'qbank-ignore', "
	  "'qbank-noqa', ...) is reported here too, since it suppresses nothing.\n"
	  "Bad: <!-- qbank-disable option-count -- legacy --> before a question with four options.\n"
	  "Good: remove the comment.",
	  NULL, NULL },
	[QB_RULE_TARGET_CANVAS_ID] = { "target-canvas-id", QB_SEV_ERROR,
	  "a question id that an earlier question has, which Canvas would take for that question",
	  "Target check of the canvas exporter: Canvas identifies a quiz's questions by their ids "
	  "(the item's ident), so a second question with an id would be taken for the first. The "
	  "export refuses such a question whatever the configuration; lint reports this finding "
	  "only when id-duplicate does not (e.g. with id-duplicate off, or suppressed inline "
	  "before the question).\n"
	  "Bad: <!-- qbank-disable id-duplicate --> before a second question with id=\"q1\".\n"
	  "Good: id=\"q2\".",
	  NULL, NULL },
	[QB_RULE_TARGET_CANVAS_KEY] = { "target-canvas-key", QB_SEV_ERROR,
	  "Canvas's scoring condition cannot state the question's key",
	  "Target check of the canvas exporter: a Canvas multiple_choice_question has exactly one "
	  "correct answer, a multiple_answers_question at least one (with none, an empty answer "
	  "scores full marks), a true_false_question one answer, a short answer at least one "
	  "accepted answer, a matching question at least one pair. The export refuses such a "
	  "question whatever the configuration; lint reports this finding only when key-missing, "
	  "key-multiple or type-shape do not.\n"
	  "Bad: <!-- qbank-disable key-multiple --> before a single question with two correct options.\n"
	  "Good: type=\"multiple\" with both options correct.",
	  NULL, NULL },
	[QB_RULE_TARGET_CANVAS_MATCHING_IMAGE] = { "target-canvas-matching-image", QB_SEV_ERROR,
	  "an image in a matching premise or response, which Canvas shows as plain text",
	  "Target check of the canvas exporter: Canvas's matching_question holds its premises "
	  "(answers) and responses (matches) as plain text, so an image in one would be lost and the "
	  "pair could not be told apart.\n"
	  "Bad: <premise><img src=\"ring.png\" alt=\"ring\"/></premise>\n"
	  "Good: <premise>Ring all-reduce</premise>, with the picture in the stem.",
	  NULL, NULL },
	[QB_RULE_TARGET_CANVAS_NUMBER] = { "target-canvas-number", QB_SEV_ERROR,
	  "a numeric answer or tolerance that is not a number Canvas can compare",
	  "Target check of the canvas exporter: each answer becomes a Canvas numerical answer "
	  "(exact, or a range of value - tolerance to value + tolerance), which needs a number and a "
	  "tolerance of 0 or more. Reported when type-shape does not.\n"
	  "Bad: <answer tolerance=\"-1\">3.5</answer>\nGood: <answer tolerance=\"0.05\">3.5</answer>",
	  NULL, NULL },
	[QB_RULE_TARGET_CANVAS_SHORT_CASE] = { "target-canvas-short-case", QB_SEV_ERROR,
	  "a case-sensitive short answer, which Canvas would mark without regard to case",
	  "Target check of the canvas exporter: Canvas's short_answer_question compares answers "
	  "without regard to case, so a question whose accepted answers are case-sensitive would "
	  "accept answers the bank rejects (RANK and rank alike).\n"
	  "Bad: <question type=\"short\" case-sensitive=\"true\">\n"
	  "Good: case-sensitive=\"false\" (the default), or a choice question.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_CASE] = { "target-gift-case", QB_SEV_ERROR,
	  "a case-sensitive short answer, which GIFT cannot state",
	  "Moodle's GIFT importer gives every short-answer question its default, 'case does not "
	  "matter' (usecase 0): GIFT has no syntax for case sensitivity. A case-sensitive question "
	  "would be marked more leniently than the bank says. Checked by qbank export --to gift, "
	  "which refuses the question.\nBad: <question type=\"short\" "
	  "case-sensitive=\"true\">\nGood: case-sensitive=\"false\" (the default), or export it to "
	  "Moodle XML.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_EMPTY] = { "target-gift-empty", QB_SEV_ERROR,
	  "an option, answer, pair or distractor is empty, which Moodle drops or stops on",
	  "Target check of the gift exporter: Moodle saves a GIFT question through the same "
	  "question types as a Moodle XML one, and drops an empty answer (so the question is "
	  "marked on fewer options than the bank has) or stops on a matching subquestion without "
	  "an answer. Reported when text-empty does not report it.\n"
	  "Bad: <option><text> </text></option>\nGood: <option><text>DDP</text></option>",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_ESSAY] = { "target-gift-essay", QB_SEV_ERROR,
	  "an essay with a grader rubric, plain-text input or word limits, which GIFT cannot state",
	  "A GIFT essay ({}) imports into Moodle with an empty grader information, a formatted "
	  "(editor) answer box of 15 lines and no word limits. An essay whose <rubric> or "
	  "<response format=\"plain\">, min-words or max-words matters would lose it. The number "
	  "of lines is presentation and is not checked.\nBad: <question "
	  "type=\"essay\">...<rubric>Two marks for ...</rubric>\nGood: an essay without a rubric "
	  "or word limits, or export it to Moodle XML.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_FRACTION] = { "target-gift-fraction", QB_SEV_ERROR,
	  "a multiple-answer score split that GIFT weights cannot express for Moodle",
	  "The GIFT export marks a multiple-answer question as the Moodle XML export does: each "
	  "correct option earns 100/N percent and each wrong one costs 100/W percent. Moodle "
	  "accepts only weights from its fixed list of grade fractions, which holds 100/N for N = "
	  "1 to 10 and 20 only.\nBad: 11 correct options (100/11 = 9.09 is not listed).\nGood: 1 "
	  "to 10, or 20, correct options and as many wrong ones.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_IMAGE] = { "target-gift-image", QB_SEV_ERROR,
	  "an image, which a GIFT file cannot carry",
	  "GIFT is one text file: it has no place for image files (Moodle XML embeds them), so an "
	  "<img> would reach Moodle as a broken link.\nBad: <stem>Which topology is shown? <img "
	  "src=\"ring.png\" alt=\"ring\"/></stem>\nGood: describe it in words, or export to Moodle "
	  "XML.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_KEY] = { "target-gift-key", QB_SEV_ERROR,
	  "Moodle cannot mark the GIFT question by its key (no key, or several in a single)",
	  "Target check of the gift exporter: a single question becomes a GIFT multiple choice "
	  "with one right answer (=), so it needs exactly one correct option; a multiple question "
	  "needs at least one, or Moodle imports one that nobody can score on; a short question "
	  "needs an accepted answer, or its empty braces ({}) import as an essay. The export "
	  "refuses such a question whatever the configuration; lint reports this finding only "
	  "when key-missing, key-multiple or type-shape do not.\n"
	  "Bad: key-missing = \"off\" and a single question with no correct option.\n"
	  "Good: one option with correct=\"true\".",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_MATCHING] = { "target-gift-matching", QB_SEV_ERROR,
	  "a matching question Moodle's GIFT import refuses (fewer than 2 pairs or 3 answers)",
	  "Moodle's matching question needs at least two subquestions and three answers in all "
	  "(pairs plus distractors); qformat_gift reads fewer, and saving the question "
	  "fails.\nBad: two pairs and no distractor.\nGood: three pairs, or two pairs and a "
	  "distractor.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_NUMBER] = { "target-gift-number", QB_SEV_ERROR,
	  "a number Moodle refuses (a numeric answer, a tolerance, an essay count)",
	  "Target check of the gift exporter: a numerical answer and its tolerance are numbers "
	  "written with a '.' ({#3.5:0.05}); Moodle's GIFT import turns anything else into '*', "
	  "which accepts every response. "
	  "Reported when type-shape does not.\n"
	  "Bad: <answer>3,5</answer>\nGood: <answer tolerance=\"0.05\">3.5</answer>",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_POINTS] = { "target-gift-points", QB_SEV_ERROR,
	  "points other than 1, which GIFT cannot state",
	  "GIFT has no syntax for a question's mark: Moodle imports every GIFT question with a "
	  "default mark of 1. A question worth 2, 0.5 or 5 points would change its weight in a "
	  "quiz without a word.\nBad: <question id=\"q1\" type=\"single\" points=\"2\">\nGood: "
	  "points=\"1\" (the default), or export to Moodle XML, which keeps the mark.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_SHAPE] = { "target-gift-shape", QB_SEV_ERROR,
	  "a body GIFT cannot carry for Moodle (fewer than 2 options, not one truefalse or numeric "
	  "answer)",
	  "Target check of the gift exporter: a multiple choice needs two answers, a truefalse "
	  "question exactly one answer, true or false ({T} or {F}), and a numerical question "
	  "exactly one number; GIFT has room for no other. Reported when option-count or "
	  "type-shape does not.\n"
	  "Bad: type-shape = \"off\" and a numeric question with two answers.\n"
	  "Good: one answer, with a tolerance that covers both values.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_SHUFFLE] = { "target-gift-shuffle", QB_SEV_ERROR,
	  "options kept in order (shuffle=\"false\"), which GIFT cannot state",
	  "Moodle's GIFT import takes the site's default for shuffling answers (shuffled); GIFT "
	  "has no syntax to keep the order. A question whose options must stay in order ('Both A "
	  "and C', a scale) would be shuffled.\nBad: <question type=\"single\" "
	  "shuffle=\"false\">\nGood: shuffle=\"true\" (the default), or export to Moodle XML.",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_TAG] = { "target-gift-tag", QB_SEV_ERROR,
	  "a tag that Moodle's GIFT [tag:] token cannot hold",
	  "The GIFT export writes tags as Moodle does, in a comment line: // [tag:name]. Moodle "
	  "reads a tag there without < > ` or control characters (PARAM_TAG), and with ']' "
	  "escaped; a tag ending in a backslash would escape its own ']'.\nBad: "
	  "<tag>&lt;gpu&gt;</tag>\nGood: <tag>gpu</tag>",
	  NULL, NULL },
	[QB_RULE_TARGET_GIFT_UNIT] = { "target-gift-unit", QB_SEV_ERROR,
	  "a numeric answer with a unit, which GIFT cannot state",
	  "A GIFT numerical question has no units: Moodle imports the number alone, and the unit "
	  "the bank gives is lost from the marking.\nBad: <answer unit=\"MB\" "
	  "tolerance=\"1\">256</answer>\nGood: the unit in the stem ('in MB') and no unit "
	  "attribute, or export to Moodle XML.",
	  NULL, NULL },
	[QB_RULE_TARGET_MARKDOWN_KEY] = { "target-markdown-key", QB_SEV_ERROR,
	  "a printed exam's answer key cannot state the question's key",
	  "Target check of the markdown exporter (also for PDF and DOCX), run by lint unless "
	  "--target leaves markdown out: a single question needs exactly one correct option and a "
	  "multiple question at least one, or the answer key contradicts the question. The export "
	  "refuses such a question whatever the configuration, even with key-missing or key-multiple "
	  "switched off; lint reports this finding only when those rules do not.\n"
	  "Bad: <!-- qbank-disable key-multiple --> before a single question with two correct options.\n"
	  "Good: type=\"multiple\" with both options correct, or one key.",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_EMPTY] = { "target-moodle-empty", QB_SEV_ERROR,
	  "an option, answer, pair or distractor is empty, which Moodle drops or stops on",
	  "Target check of the moodle exporter: Moodle's importer drops an empty answer (so the "
	  "question is marked on fewer options than the bank has) and stops on a matching "
	  "subquestion without an answer. Reported when text-empty does not report it.\n"
	  "Bad: <option><text> </text></option>\nGood: <option><text>DDP</text></option>",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_FRACTION] = { "target-moodle-fraction", QB_SEV_ERROR,
	  "a score split that Moodle's importer rejects",
	  "Target check of the moodle exporter. Moodle accepts only grade fractions from a fixed "
	  "list (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, "
	  "14.28571, 12.5, 11.11111, 10, 5, 0 and the negatives). A multiple-answer question whose "
	  "correct count (or wrong count, for negative marks) has no listed share cannot be exported "
	  "to Moodle.\n"
	  "Bad: 7 correct options (100/7 = 14.28571 is listed, but 13 wrong options have no share).\n"
	  "Good: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 or 20 correct options.",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_KEY] = { "target-moodle-key", QB_SEV_ERROR,
	  "Moodle cannot mark the question by its key (no key, or several in a single)",
	  "Target check of the moodle exporter: a single question becomes a multichoice with one "
	  "100% answer, so it needs exactly one correct option; a multiple question needs at least "
	  "one, and a short question an accepted answer (else Moodle's import aborts). The export "
	  "refuses such a question whatever the configuration; lint reports this finding only when "
	  "key-missing, key-multiple or type-shape do not.\n"
	  "Bad: key-missing = \"off\" and a single question with no correct option.\n"
	  "Good: one option with correct=\"true\".",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_MATCHING] = { "target-moodle-matching", QB_SEV_ERROR,
	  "a matching question with fewer than 3 answers (pairs plus distractors)",
	  "Target check of the moodle exporter: Moodle's matching type needs at least 2 "
	  "subquestions and 3 answers to choose from, and refuses the question otherwise. A "
	  "matching question with two pairs needs a distractor (an extra response) for Moodle.\n"
	  "Bad: two <pair> and no <distractor>.\n"
	  "Good: two <pair> and one <distractor>, or three pairs.",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_NUMBER] = { "target-moodle-number", QB_SEV_ERROR,
	  "a number Moodle's database refuses (a numeric answer, a tolerance, an essay count)",
	  "Target check of the moodle exporter: a numerical answer and its tolerance are numbers "
	  "written with a '.', and an essay's lines, min-words and max-words whole numbers; "
	  "Moodle's database refuses anything else. Reported when type-shape does not.\n"
	  "Bad: <answer>3,5</answer>\nGood: <answer tolerance=\"0.05\">3.5</answer>",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_POINTS] = { "target-moodle-points", QB_SEV_ERROR,
	  "points that Moodle's defaultgrade cannot hold",
	  "Target check of the moodle exporter: points become the question's defaultgrade, a "
	  "decimal of at most 5 digits before the point (99999.9999999).\n"
	  "Bad: points=\"1000000\"\nGood: points=\"2\"",
	  NULL, NULL },
	[QB_RULE_TARGET_MOODLE_SHAPE] = { "target-moodle-shape", QB_SEV_ERROR,
	  "a body Moodle's question type cannot take (fewer than 2 options, a truefalse answer)",
	  "Target check of the moodle exporter: a multichoice needs two answers, a truefalse "
	  "question exactly one answer, true or false. Reported when option-count or type-shape "
	  "does not.\n"
	  "Bad: option-count = \"off\" and a single question with one option.\n"
	  "Good: two options or more.",
	  NULL, NULL },
	[QB_RULE_TARGET_QTI_IDENTIFIER] = { "target-qti-identifier", QB_SEV_ERROR,
	  "a question or option id that is not a QTI identifier, two equal option ids, or a "
	  "question id that an earlier question has",
	  "Target check of the qti21 exporter: question ids become item identifiers and option "
	  "ids choice identifiers, which are XML NCNames and unique within the item; a question id "
	  "also names the item's file and its resource in the package's manifest, so it is unique "
	  "in the package (reported only when id-duplicate does not, e.g. with id-duplicate off or "
	  "suppressed inline).\n"
	  "Bad: <option id=\"1st\">\nGood: <option id=\"first\">",
	  NULL, NULL },
	[QB_RULE_TARGET_QTI_KEY] = { "target-qti-key", QB_SEV_ERROR,
	  "the item's correctResponse cannot state the question's key",
	  "Target check of the qti21 exporter: a single question's response has cardinality "
	  "single, so it needs exactly one correct option (with two, a candidate who picks the "
	  "second scores 0 and is shown its 'Correct.' rationale); a multiple, short, truefalse or "
	  "matching question needs a key at all, or every answer scores 0. The export refuses such "
	  "a question whatever the configuration; lint reports this finding only when key-missing, "
	  "key-multiple or type-shape do not.\n"
	  "Bad: <!-- qbank-disable key-multiple --> before a single question with two correct options.\n"
	  "Good: type=\"multiple\" with both options correct.",
	  NULL, NULL },
	[QB_RULE_TARGET_QTI_NUMBER] = { "target-qti-number", QB_SEV_ERROR,
	  "a numeric answer or tolerance that is not a number QTI can compare",
	  "Target check of the qti21 exporter: the answer becomes a float correctResponse and the "
	  "tolerance an absolute tolerance of 0 or more. Reported when type-shape does not.\n"
	  "Bad: <answer tolerance=\"-1\">3.5</answer>\nGood: <answer tolerance=\"0.05\">3.5</answer>",
	  NULL, NULL },
	[QB_RULE_TEXT_EMPTY] = { "text-empty", QB_SEV_ERROR,
	  "a stem, option text, answer or category name is empty or only white space",
	  "An empty stem or option prints as a blank and imports as a broken question. Checked: the "
	  "stem, option texts, answers, the premise and response of matching pairs and extra "
	  "responses (distractors); each finding names the line of the empty part. A category "
	  "without a name (name=\"\" or only white space) is reported at its line: Moodle cannot "
	  "create it, and no reader can tell it apart.\n"
	  "Bad: <stem></stem>\nGood: <stem>Which technique reduces traffic?</stem>",
	  qb_rule_text_empty, NULL },
	[QB_RULE_TYPE_SHAPE] = { "type-shape", QB_SEV_ERROR,
	  "the body does not fit the question's type",
	  "XSD 1.0 cannot tie content to an attribute value, so the linter checks it: options belong "
	  "to single and multiple, answers to truefalse, short and numeric, question-level rationales "
	  "(one per side) to truefalse, pairs and distractors to matching, response and rubric to "
	  "essay; select only on multiple, case-sensitive only on short, shuffle not on truefalse, "
	  "short, numeric or essay. A truefalse question has exactly one answer, true or false; a "
	  "numeric question exactly one answer that is a number (with a dot) and a tolerance that is "
	  "a number; a short question at least one answer; a matching question at least 2 pairs, "
	  "each with premise and response. Option ids are unique in the question.\n"
	  "Bad: <question type=\"short\"> with <option> children.\n"
	  "Good: <question type=\"short\"><stem>...</stem><answer>DDP</answer></question>",
	  qb_rule_type_shape, NULL },
	[QB_RULE_XML_DOCTYPE] = { "xml-doctype", QB_SEV_ERROR,
	  "the file has a DOCTYPE declaration (bank files take no DTD and no entities)",
	  "A DTD brings entities, and entities are how XML attacks work: external entities that "
	  "read local files (XXE), and expansion bombs (billion laughs). The bank schema needs "
	  "no DTD, so a file with a DOCTYPE is not read at all.\n"
	  "Bad: <!DOCTYPE bank [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
	  "Good: no DOCTYPE; write &lt; &amp; &gt; &quot; &apos; or the character itself.",
	  NULL, NULL, 1 },
	[QB_RULE_XML_ENCODING] = { "xml-encoding", QB_SEV_ERROR,
	  "the file is not UTF-8 (UTF-16, another declared encoding, or bytes that are not UTF-8)",
	  "Bank files are UTF-8 so that diffs, grep and review in pull requests work on them and "
	  "line numbers mean the same everywhere. A UTF-16 file (byte-order mark) or an XML "
	  "declaration naming another encoding is not read, and a byte that is not UTF-8 (a Latin-1 "
	  "0xE9 for an accented e, pasted from an old file) stops the parse; the finding names the "
	  "bytes, the column and the iconv command that converts the file.\n"
	  "Bad: <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
	  "Good: <?xml version=\"1.0\" encoding=\"UTF-8\"?> (convert with iconv -t UTF-8).",
	  NULL, NULL, 1 },
	[QB_RULE_XML_SCHEMA] = { "xml-schema", QB_SEV_ERROR,
	  "the file does not follow schema/qbank.xsd",
	  "Elements, attributes and their order must follow the bank schema. The message says it in "
	  "the bank's words, with the line of the offending element: '<tag> must come before "
	  "<stem>', '<question> has no attribute 'ponts'; did you mean 'points'?', "
	  "type=\"singel\" ... did you mean type=\"single\"?, booleans in lower case (true, not "
	  "True), a decimal comma in points; a file whose root is not <bank> is one finding that "
	  "says what the file is (a Moodle XML file: qbank import converts it).\n"
	  "Bad: <option><rationale>...</rationale></option> (no text).\n"
	  "Good: <option><text>...</text><rationale>...</rationale></option>",
	  NULL, NULL, 1 },
	[QB_RULE_XML_SYNTAX] = { "xml-syntax", QB_SEV_ERROR,
	  "the file is not well-formed XML",
	  "The parser stops at the first well-formedness error; nothing after it is checked.\n"
	  "Bad: <stem>a < b</stem>\nGood: <stem>a &lt; b</stem>",
	  NULL, NULL, 1 },
};

const size_t qb_nrules = sizeof(qb_rules) / sizeof(qb_rules[0]);

static int cmp_rule(const void *key, const void *elem)
{
	return strcmp(key, ((const struct qb_rule *)elem)->id);
}

const struct qb_rule *qb_rule_find(const char *id)
{
	if (!id)
		return NULL;
	return bsearch(id, qb_rules, qb_nrules, sizeof(qb_rules[0]), cmp_rule);
}

int qb_rule_known(const char *name)
{
	const struct qb_rule *r = qb_rule_find(name);

	if (r)
		return r->fixed ? QB_CONFIG_RULE_FIXED : QB_CONFIG_RULE_OK;
	return strpbrk(name, "*?[") || strncmp(name, "custom/", 7) == 0 ? QB_CONFIG_RULE_OK
									: QB_CONFIG_RULE_UNKNOWN;
}

const char *qb_rule_suggest(const char *name)
{
	const char *ids[QB_RULE_COUNT];
	size_t i;

	for (i = 0; i < QB_RULE_COUNT; i++)
		ids[i] = qb_rules[i].id;
	return name ? qb_text_closest(name, ids, QB_RULE_COUNT) : NULL;
}
