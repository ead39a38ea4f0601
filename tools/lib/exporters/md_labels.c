/* The printed exam's words ("Name", "points", "Answer key", ...) in the
 * bank's language: English, German, French, Spanish and Dutch built in,
 * any other language (or other wording) from a labels file. See md.h. */
#include "md.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../error.h"

/* Keep sorted by name: the labels file's keys are looked up here, and a
 * unit test checks the order. The index is the label. */
const struct md_label_key md_label_keys[MD_NLABELS] = {
	{ "answer", MD_L_ANSWER },
	{ "answer-key", MD_L_ANSWER_KEY },
	{ "answer-sheet", MD_L_ANSWER_SHEET },
	{ "at-least", MD_L_AT_LEAST },
	{ "at-most", MD_L_AT_MOST },
	{ "case-sensitive", MD_L_CASE },
	{ "correct", MD_L_CORRECT },
	{ "course", MD_L_COURSE },
	{ "duration", MD_L_DURATION },
	{ "explanation", MD_L_EXPLANATION },
	{ "false", MD_L_FALSE },
	{ "form", MD_L_FORM },
	{ "graded-by-hand", MD_L_GRADED_HAND },
	{ "graded-with-rubric", MD_L_GRADED_RUBRIC },
	{ "instructions", MD_L_INSTRUCTIONS },
	{ "key", MD_L_KEY },
	{ "matching-hint", MD_L_MATCH_HINT },
	{ "name", MD_L_NAME },
	{ "number", MD_L_NO },
	{ "point", MD_L_POINT },
	{ "points", MD_L_POINTS },
	{ "printed-bank", MD_L_PRINTED },
	{ "question", MD_L_QUESTION },
	{ "rubric", MD_L_RUBRIC },
	{ "select", MD_L_SELECT },
	{ "select-all", MD_L_SELECT_ALL },
	{ "student-number", MD_L_STUDENT_NUMBER },
	{ "teacher-version", MD_L_TEACHER },
	{ "total", MD_L_TOTAL },
	{ "true", MD_L_TRUE },
	{ "words", MD_L_WORDS },
	{ "working", MD_L_WORKING },
};

struct builtin {
	const char *lang;
	const char *v[MD_NLABELS];
};

#define ROW(...) { __VA_ARGS__ }

/* In enum order (md.h). English first: the fallback of every other. */
static const struct builtin builtins[] = {
	{ "en", ROW("Name", "Student number", "point", "points", "Select", "Select all that apply",
		    "Explanation", "Rubric", "Form", "Answer key", "Teacher's version", "Instructions",
		    "Answer", "True", "False", "Total", "Course", "Duration", "Answer sheet", "correct",
		    "Write the letter of the matching answer on the line before each item.", "words",
		    "at least", "at most", "No.", "Question", "Key", "Printed = bank",
		    "graded with the rubric", "graded by hand", "case-sensitive", "Working") },
	{ "de", ROW("Name", "Matrikelnummer", "Punkt", "Punkte", "Wählen Sie",
		    "Wählen Sie alle zutreffenden aus", "Erklärung", "Bewertungsschema", "Variante",
		    "Lösungsschlüssel", "Version für Lehrende", "Hinweise", "Antwort", "Wahr", "Falsch",
		    "Gesamt", "Kurs", "Dauer", "Antwortbogen", "richtig",
		    "Schreiben Sie den Buchstaben der passenden Antwort auf die Linie vor jedem Eintrag.",
		    "Wörter", "mindestens", "höchstens", "Nr.", "Frage", "Lösung", "Gedruckt = Bank",
		    "nach Bewertungsschema", "von Hand bewertet", "Groß-/Kleinschreibung beachten",
		    "Rechenweg") },
	{ "es", ROW("Nombre", "Número de estudiante", "punto", "puntos", "Seleccione",
		    "Seleccione todas las que correspondan", "Explicación", "Rúbrica", "Modelo",
		    "Clave de respuestas", "Versión del profesor", "Instrucciones", "Respuesta",
		    "Verdadero", "Falso", "Total", "Curso", "Duración", "Hoja de respuestas", "correcta",
		    "Escriba la letra de la respuesta correspondiente en la línea delante de cada elemento.",
		    "palabras", "al menos", "como máximo", "N.º", "Pregunta", "Clave", "Impresa = banco",
		    "se califica con la rúbrica", "se califica a mano", "distingue mayúsculas",
		    "Desarrollo") },
	{ "fr", ROW("Nom", "Numéro d'étudiant", "point", "points", "Sélectionnez",
		    "Sélectionnez toutes les bonnes réponses", "Explication", "Barème", "Version",
		    "Corrigé", "Version de l'enseignant", "Consignes", "Réponse", "Vrai", "Faux", "Total",
		    "Cours", "Durée", "Feuille de réponses", "correct",
		    "Écrivez la lettre de la réponse correspondante sur la ligne devant chaque élément.",
		    "mots", "au moins", "au plus", "N°", "Question", "Réponse", "Imprimé = banque",
		    "noté selon le barème", "noté à la main", "sensible à la casse", "Calculs") },
	{ "nl", ROW("Naam", "Studentnummer", "punt", "punten", "Kies", "Kies alle juiste antwoorden",
		    "Uitleg", "Beoordelingsschema", "Versie", "Antwoordsleutel", "Docentenversie",
		    "Instructies", "Antwoord", "Waar", "Onwaar", "Totaal", "Vak", "Duur", "Antwoordblad",
		    "juist", "Schrijf de letter van het passende antwoord op de lijn voor elk item.",
		    "woorden", "minstens", "hoogstens", "Nr.", "Vraag", "Sleutel", "Gedrukt = bank",
		    "beoordeeld met het schema", "met de hand beoordeeld", "hoofdlettergevoelig",
		    "Uitwerking") },
};

static int cmp_key(const void *k, const void *e)
{
	return strcmp(k, ((const struct md_label_key *)e)->name);
}

/* The row of LANG's primary subtag ("de-CH" is "de"), or NULL. */
static const struct builtin *builtin_of(const char *lang)
{
	size_t k, n;

	if (!lang)
		return NULL;
	n = strcspn(lang, "-_");
	for (k = 0; k < sizeof(builtins) / sizeof(builtins[0]); k++)
		if (strlen(builtins[k].lang) == n && strncasecmp(builtins[k].lang, lang, n) == 0)
			return &builtins[k];
	return NULL;
}

int md_labels_known(const char *lang)
{
	return builtin_of(lang) != NULL;
}

/* Parses "key: value" lines (# comments, blank lines) into OVER (copies). */
static int parse_file(char *over[MD_NLABELS], const char *text, size_t n, const char *path,
		      struct qb_error *err)
{
	const char *p = text, *end = text + n;
	unsigned long line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *colon, *k0, *k1, *v0, *v1;
		const struct md_label_key *key;
		char name[64];

		line++;
		for (k0 = p; k0 < e && (*k0 == ' ' || *k0 == '\t'); k0++)
			;
		p = nl ? nl + 1 : end;
		if (k0 == e || *k0 == '#' || *k0 == '\r')
			continue;
		colon = memchr(k0, ':', (size_t)(e - k0));
		for (k1 = colon ? colon : k0; k1 > k0 && (k1[-1] == ' ' || k1[-1] == '\t'); k1--)
			;
		if (!colon || k1 == k0 || (size_t)(k1 - k0) >= sizeof(name)) {
			qb_error_set(err, QB_EINVAL, "%s:%lu: expected 'key: text' (keys: qbank.1, --labels)",
				     path, line);
			return QB_EINVAL;
		}
		memcpy(name, k0, (size_t)(k1 - k0));
		name[k1 - k0] = '\0';
		key = bsearch(name, md_label_keys, MD_NLABELS, sizeof(md_label_keys[0]), cmp_key);
		if (!key) {
			qb_error_set(err, QB_EINVAL, "%s:%lu: unknown label '%s' (keys: qbank.1, --labels)",
				     path, line, name);
			return QB_EINVAL;
		}
		for (v0 = colon + 1; v0 < e && (*v0 == ' ' || *v0 == '\t'); v0++)
			;
		for (v1 = e; v1 > v0 && (v1[-1] == ' ' || v1[-1] == '\t' || v1[-1] == '\r'); v1--)
			;
		free(over[key->label]);
		over[key->label] = strndup(v0, (size_t)(v1 - v0));
		if (!over[key->label])
			return QB_ENOMEM;
	}
	return 0;
}

int md_labels_resolve(struct md_labels *l, const char *lang, const char *file, struct qb_error *err)
{
	const struct builtin *b = builtin_of(lang), *en = &builtins[0];
	char *over[MD_NLABELS] = { NULL };
	struct qb_buf t = QB_BUF_INIT;
	int i, rc = 0;

	if (file) {
		FILE *f = fopen(file, "rb");
		char *text = NULL;
		size_t n = 0;

		if (!f) {
			qb_error_set(err, QB_EIO, "%s: cannot read the labels file", file);
			return QB_EIO;
		}
		text = malloc(65537);
		if (text)
			n = fread(text, 1, 65536, f);
		(void)fclose(f);   /* read only */
		if (!text)
			return QB_ENOMEM;
		rc = parse_file(over, text, n, file, err);
		free(text);
	}
	for (i = 0; i < MD_NLABELS && !rc; i++) {
		const char *v = over[i] ? over[i] : b ? b->v[i] : en->v[i];

		qb_buf_clear(&t);
		rc = md_plain(&t, v, strlen(v));
		free(l->v[i]);
		free(l->plain[i]);
		l->v[i] = rc ? NULL : strdup(t.ptr ? t.ptr : "");
		l->plain[i] = rc ? NULL : strdup(v);
		if (!rc && (!l->v[i] || !l->plain[i]))
			rc = QB_ENOMEM;
	}
	for (i = 0; i < MD_NLABELS; i++)
		free(over[i]);
	qb_buf_dispose(&t);
	if (rc == QB_ENOMEM)
		qb_error_set(err, rc, "out of memory");
	return rc;
}

void md_labels_dispose(struct md_labels *l)
{
	int i;

	for (i = 0; i < MD_NLABELS; i++) {
		free(l->v[i]);
		free(l->plain[i]);
		l->v[i] = l->plain[i] = NULL;
	}
}

const char *md_label(const struct md_labels *l, enum md_label_id id)
{
	return l && l->v[id] ? l->v[id] : "";
}

const char *md_label_plain(const struct md_labels *l, enum md_label_id id)
{
	return l && l->plain[id] ? l->plain[id] : "";
}
