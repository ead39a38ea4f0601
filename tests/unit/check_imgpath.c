/* imgpath.h: which img src values may make qbank read a file. Lexical
 * verdicts as a table; the file-system verdicts (missing, folder, FIFO,
 * link out of the folder, too big) on a scratch folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/lib/imgpath.h"
#include "../../tools/lib/limits.h"
#include "check_suites.h"

static char dir[64];
static char bank[96];

static void mk(const char *rel, const char *content)
{
	char p[160];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
	char p[160];

	snprintf(dir, sizeof(dir), "/tmp/qbank-imgpath-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/b", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/b/img", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/b/img/dir.png", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	mk("secret.png", "secret\n");
	mk("b/img/ok.png", "\x89PNG\r\n\x1a\n");
	snprintf(p, sizeof(p), "%s/b/img/out.png", dir);
	ck_assert_int_eq(symlink("../../secret.png", p), 0);
	snprintf(p, sizeof(p), "%s/b/img/in.png", dir);
	ck_assert_int_eq(symlink("ok.png", p), 0);
	snprintf(p, sizeof(p), "%s/b/img/fifo.png", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/b/img/big.png", dir);
	mk("b/img/big.png", "");
	ck_assert_int_eq(truncate(p, QB_LIMIT_IMAGE_BYTES + 1), 0);
	snprintf(bank, sizeof(bank), "%s/b/bank.xml", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct {
	const char *src;
	int verdict;
} cases[] = {
	{ "img/ok.png", QB_IMG_OK },
	{ "img/in.png", QB_IMG_OK },          /* a link that stays inside */
	{ "img/./ok.png", QB_IMG_OK },
	{ "", QB_IMG_UNSAFE },
	{ "/etc/passwd", QB_IMG_UNSAFE },
	{ "http://127.0.0.1/x.png", QB_IMG_UNSAFE },
	{ "file:///etc/passwd", QB_IMG_UNSAFE },
	{ "data:image/png;base64,AAAA", QB_IMG_UNSAFE },
	{ "C:\\img\\ok.png", QB_IMG_UNSAFE },
	{ "img\\ok.png", QB_IMG_UNSAFE },
	{ "../secret.png", QB_IMG_UNSAFE },
	{ "img/../../secret.png", QB_IMG_UNSAFE },
	{ "img/../ok.png", QB_IMG_UNSAFE },   /* no '..' at all, even when it stays inside */
	{ "..", QB_IMG_UNSAFE },
	{ "img/", QB_IMG_UNSAFE },
	{ "img/ok.png\n", QB_IMG_UNSAFE },
	{ "img/out.png", QB_IMG_UNSAFE },     /* a link out of the folder */
	{ "img/missing.png", QB_IMG_MISSING },
	{ "missing/ok.png", QB_IMG_MISSING },
	{ "img/ok.png/x", QB_IMG_MISSING },
	{ "img/dir.png", QB_IMG_MISSING },
	{ "img/fifo.png", QB_IMG_MISSING },
	{ "img/big.png", QB_IMG_TOO_BIG },
	{ "...png", QB_IMG_MISSING },         /* a name, not a '..' segment */
};

START_TEST(verdicts)
{
	const char *why = NULL;
	char *resolved = (char *)1;
	int v = qb_img_path_check(bank, cases[_i].src, &resolved, &why);

	ck_assert_msg(v == cases[_i].verdict, "src '%s': verdict %d (%s), expected %d",
		      cases[_i].src, v, why ? why : "", cases[_i].verdict);
	ck_assert_ptr_nonnull(why);
	if (v == QB_IMG_OK) {
		ck_assert_ptr_nonnull(resolved);
		ck_assert_int_eq(access(resolved, R_OK), 0);
		free(resolved);
	} else {
		ck_assert_ptr_null(resolved);
	}
}
END_TEST

START_TEST(relative_bank_path)
{
	char *resolved = NULL;
	char cwd[512];

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(qb_img_path_check("b/bank.xml", "img/ok.png", &resolved, NULL), QB_IMG_OK);
	ck_assert_str_eq(resolved, "b/img/ok.png");
	free(resolved);
	ck_assert_int_eq(chdir("b"), 0);
	ck_assert_int_eq(qb_img_path_check("bank.xml", "img/ok.png", &resolved, NULL), QB_IMG_OK);
	ck_assert_str_eq(resolved, "./img/ok.png");
	free(resolved);
	ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

START_TEST(read_only_what_is_safe)
{
	struct qb_buf b = QB_BUF_INIT;
	struct qb_error err = { 0, "" };

	ck_assert_int_eq(qb_img_read(&b, bank, "img/ok.png", &err), 0);
	ck_assert_uint_eq(b.len, 8);
	ck_assert_int_eq(memcmp(b.ptr, "\x89PNG\r\n\x1a\n", 8), 0);
	qb_buf_clear(&b);
	ck_assert_int_eq(qb_img_read(&b, bank, "img/out.png", &err), QB_EREFUSED);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "outside the bank's folder"));
	err.code = 0;
	err.msg[0] = '\0';
	ck_assert_int_eq(qb_img_read(&b, bank, "../secret.png", &err), QB_EREFUSED);
	ck_assert_uint_eq(b.len, 0);
	err.code = 0;
	err.msg[0] = '\0';
	ck_assert_int_eq(qb_img_read(&b, bank, "img/fifo.png", &err), QB_EREFUSED);
	ck_assert_uint_eq(b.len, 0);
	qb_buf_dispose(&b);
}
END_TEST

Suite *suite_imgpath(void)
{
	Suite *s = suite_create("imgpath");
	TCase *t = tcase_create("imgpath");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_loop_test(t, verdicts, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(t, relative_bank_path);
	tcase_add_test(t, read_only_what_is_safe);
	suite_add_tcase(s, t);
	return s;
}
