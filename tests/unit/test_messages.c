// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A drift guard: the library's strings (its messages) name no program's
 * options or commands.  What a client can do about a failure travels as a
 * hint (damos_error_hint()); damoctl words its own advice.  Scans the
 * string literals of lib/ *.c, below $DAMOS_SRCDIR (make check-unit sets it).
 */
#include <ctype.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Whether literal @s names an option ("--interface") or damoctl itself. */
static const char *offends(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (p[0] == '-' && p[1] == '-' && islower((unsigned char)p[2]) &&
		    (p == s || !isalnum((unsigned char)p[-1])))
			return "an option";
		if (!strncmp(p, "damoctl", 7) && strncmp(p, "damoctl.conf", 12))
			return "damoctl";
	}
	return NULL;
}

/* The string literals of C source @src, outside comments, one by one. */
static int scan(const char *name, const char *src, char *bad, size_t sz)
{
	int nr = 0, line = 1;

	for (const char *p = src; *p; p++) {
		if (*p == '\n') {
			line++;
		} else if (p[0] == '/' && p[1] == '*') {
			for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
				line += *p == '\n';
			if (!*p)
				break;
			p++;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (*p == '\'') {
			for (p++; *p && *p != '\''; p++)
				p += *p == '\\' && p[1];
		} else if (*p == '"') {
			char lit[2048];
			size_t n = 0;
			const char *why;

			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				if (n + 1 < sizeof(lit))
					lit[n++] = *p;
			}
			lit[n] = '\0';
			nr++;
			why = offends(lit);
			if (why && !*bad)
				snprintf(bad, sz, "%s:%d names %s: \"%.400s\"", name,
					 line, why, lit);
			if (!*p)
				break;
		}
	}
	return nr;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), n);
	fclose(f);
	return buf;
}

static void test_scanner_finds(void **state)
{
	char bad[512] = "";

	(void)state;
	/* the guard can fail: an option in a literal is found, in comments not */
	assert_int_equal(scan("x.c", "/* --interface */ f(\"ok\"); // damoctl\n"
			      "g('\"'); h(\"use --interface sysfs\");", bad,
			      sizeof(bad)), 2);
	assert_string_equal(bad, "x.c:2 names an option: \"use --interface sysfs\"");
	bad[0] = '\0';
	scan("y.c", "e(\"stop it (damoctl monitor stop)\");", bad, sizeof(bad));
	assert_string_equal(bad, "y.c:1 names damoctl: \"stop it (damoctl monitor stop)\"");
	bad[0] = '\0';
	scan("z.c", "e(\"damoctl.conf: x--y, 5 -- 3\");", bad, sizeof(bad));
	assert_string_equal(bad, "");
}

static void test_lib_strings(void **state)
{
	const char *dir = getenv("DAMOS_SRCDIR");
	char pat[4096], bad[1024] = "";
	glob_t g;
	int nr = 0;

	(void)state;
	snprintf(pat, sizeof(pat), "%s/lib/*.c", dir ? dir : ".");
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *src = slurp(g.gl_pathv[i]);

		nr += scan(g.gl_pathv[i], src, bad, sizeof(bad));
		free(src);
	}
	globfree(&g);
	/* a scanner that saw nothing would pass anything */
	assert_true(nr > 300);
	if (*bad)
		fail_msg("%s: say it with a hint (damos_error_hint()) instead", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scanner_finds),
		cmocka_unit_test(test_lib_strings),
	};

	return cmocka_run_group_tests_name("messages", tests, NULL, NULL);
}
