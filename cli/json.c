// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --json: the small writer every command's document goes through.  A
 * command's output, errors, notes and dry-run script are collected while
 * it runs (json_begin), then printed as exactly one document (json_end):
 *
 *   {"error": FIRST, "errors": [ALL]}       when something failed
 *   {"dry_run": SCRIPT[, "result": DOC]}    a dry run
 *   DOC                                     what the command printed
 *   {"ok": true}                            a write that printed nothing
 *
 * plus "notes": [...] for what damoctl chose (paddr's region).  Strings
 * are valid UTF-8: an invalid byte becomes U+FFFD.  Numbers are exact
 * unsigned 64-bit integers (see JSON in damoctl(8)).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The length of the valid UTF-8 sequence at @s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, f);
		} else if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fputc(*s, f);
		}
		s += n;
	}
	fputc('"', f);
}

void json_add(char ***arr, size_t *n, const char *s)
{
	char **a = realloc(*arr, (*n + 1) * sizeof(*a));

	if (!a)
		return;
	*arr = a;
	a[*n] = strdup(s);
	if (a[*n])
		(*n)++;
}

static void strings(FILE *f, const char *key, char **arr, size_t n)
{
	fprintf(f, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_str(f, arr[i]);
	}
	fputc(']', f);
}

static void free_strings(char ***arr, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		free((*arr)[i]);
	free(*arr);
	*arr = NULL;
	*n = 0;
}

void json_begin(struct cli *c, FILE **saved, char **buf, size_t *len)
{
	*saved = NULL;
	*buf = NULL;
	*len = 0;
	if (!c->json || c->capture)
		return;
	FILE *f = open_memstream(buf, len);

	if (!f)
		return;
	*saved = c->out;
	c->out = f;
	c->capture = true;
}

/* The documents printed, one a line, as one: itself or an array. */
static void result(FILE *f, char *doc)
{
	size_t n = strlen(doc), lines = 0;

	while (n && doc[n - 1] == '\n')
		doc[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		lines += doc[i] == '\n';
	if (!lines) {
		fputs(doc, f);
		return;
	}
	fputc('[', f);
	for (char *p = doc; *p; p++)
		fputc(*p == '\n' ? ',' : *p, f);
	fputc(']', f);
}

void json_end(struct cli *c, FILE *saved, char **bufp, size_t *lenp, int status)
{
	FILE *f = saved;
	char *buf;
	bool doc;

	(void)lenp;
	if (!saved)
		return;
	/* the memstream sets *bufp and *lenp when it is closed */
	fclose(c->out);
	buf = *bufp;
	c->out = saved;
	c->capture = false;
	doc = buf && buf[strspn(buf, " \n")];
	if (c->nr_errs) {
		fprintf(f, "{\"error\":");
		json_str(f, c->json_errs[0]);
		if (c->nr_errs > 1) {
			fputc(',', f);
			strings(f, "errors", c->json_errs, c->nr_errs);
		}
	} else if (c->json_script) {
		fprintf(f, "{\"dry_run\":");
		json_str(f, c->json_script);
		if (doc) {
			fprintf(f, ",\"result\":");
			result(f, buf);
		}
	} else if (doc && !c->nr_notes) {
		result(f, buf);
		fputc('\n', f);
		goto out;
	} else if (doc) {
		fprintf(f, "{\"result\":");
		result(f, buf);
	} else {
		fprintf(f, "{\"ok\":%s", status ? "false" : "true");
	}
	if (c->nr_notes) {
		fputc(',', f);
		strings(f, "notes", c->json_notes, c->nr_notes);
	}
	fprintf(f, "}\n");
out:
	free_strings(&c->json_errs, &c->nr_errs);
	free_strings(&c->json_notes, &c->nr_notes);
	free(c->json_script);
	c->json_script = NULL;
	free(buf);
	fflush(f);
}
