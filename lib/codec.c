// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int damos_dbgfs_encode_scheme(const struct damos_scheme *s, char *buf,
			      size_t sz)
{
	const uint64_t *v = s->v;
	int err, n;

	err = damos_scheme_validate(s);
	if (err)
		return err;
	n = snprintf(buf, sz,
		     "%llu %llu %llu %llu %llu %llu %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		     (unsigned long long)v[0], (unsigned long long)v[1],
		     (unsigned long long)v[2], (unsigned long long)v[3],
		     (unsigned long long)v[4], (unsigned long long)v[5],
		     damos_action_dbgfs_nr(v[DAMOS_F_ACTION]),
		     (unsigned long long)v[7], (unsigned long long)v[8],
		     (unsigned long long)v[9], (unsigned long long)v[10],
		     (unsigned long long)v[11], (unsigned long long)v[12],
		     (unsigned long long)v[13], (unsigned long long)v[14],
		     (unsigned long long)v[15], (unsigned long long)v[16],
		     (unsigned long long)v[17]);
	if (n < 0 || (size_t)n >= sz)
		return damos_err(-ENOSPC, "dbgfs line: buffer too small");
	return n;
}

char *damos_dbgfs_encode(struct damos_scheme *const *s, size_t n)
{
	struct damos_buf b = { 0 };
	char line[512];

	if (!n)
		return strdup("\n") ?: damos_err_null(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int err = damos_dbgfs_encode_scheme(s[i], line, sizeof(line));

		if (err < 0) {
			damos_buf_free(&b);
			damos_err_prefix(err, "scheme %zu: ", i);
			errno = -err;
			return NULL;
		}
		damos_buf_printf(&b, "%s", line);
	}
	if (b.err) {
		damos_buf_free(&b);
		return damos_err_null(-ENOMEM, "out of memory");
	}
	return b.s;
}

/* The action and the metric are printed with %d, so they may be negative. */
static int parse_field(const char *tok, int f, uint64_t *v)
{
	if (tok[0] == '-' && (f == DAMOS_F_ACTION || f == DAMOS_F_WMARKS_METRIC))
		return damos_err(-EINVAL, "%s: '%s' is negative",
				 damos_fields[f].name, tok);
	if (damos_parse_u64(tok, v))
		return damos_err(-EINVAL, "%s: '%s' is not a number",
				 damos_fields[f].name, tok);
	return 0;
}

static int decode_line(char *line, struct damos_scheme *s)
{
	char *tok, *save = NULL;
	uint64_t v[DAMOS_NR_FIELDS] = { 0 };
	int n = 0, err, a;

	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (n == DAMOS_NR_FIELDS)
			return damos_err(-EINVAL, "more than %d fields",
					 DAMOS_NR_FIELDS);
		err = parse_field(tok, n < DAMOS_NR_INPUT_FIELDS ? n : DAMOS_F_NR_TRIED, &v[n]);
		if (err)
			return err;
		n++;
	}
	if (n != DAMOS_NR_INPUT_FIELDS && n != DAMOS_NR_INPUT_FIELDS + 2 &&
	    n != DAMOS_NR_FIELDS)
		return damos_err(-EINVAL, "%d fields (expected 18, 20 or 23)",
				 n);
	if (v[DAMOS_F_ACTION] > INT32_MAX ||
	    (a = damos_action_from_dbgfs((long)v[DAMOS_F_ACTION])) < 0)
		return damos_err(-EINVAL, "action: unknown dbgfs action number %llu",
				 (unsigned long long)v[DAMOS_F_ACTION]);
	v[DAMOS_F_ACTION] = (uint64_t)a;
	for (int f = 0; f < DAMOS_NR_FIELDS; f++) {
		if (v[f] > damos_fields[f].max)
			return damos_err(-EINVAL,
					 "%s: %llu is out of range (max %llu)",
					 damos_fields[f].name,
					 (unsigned long long)v[f],
					 (unsigned long long)damos_fields[f].max);
		s->v[f] = v[f];
	}
	return 0;
}

int damos_dbgfs_decode(const char *text, struct damos_scheme ***out,
		       size_t *n)
{
	struct damos_scheme **arr = NULL;
	char *copy, *line, *next;
	size_t nr = 0, lineno = 0;
	int err = 0;

	copy = strdup(text ? text : "");
	if (!copy)
		return damos_err(-ENOMEM, "out of memory");
	for (line = copy; line && !err; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!line[strspn(line, " \t")])
			continue;

		struct damos_scheme **tmp = realloc(arr, (nr + 1) * sizeof(*arr));
		struct damos_scheme *s = calloc(1, sizeof(*s));

		if (tmp)
			arr = tmp;
		if (!tmp || !s) {
			free(s);
			err = damos_err(-ENOMEM, "out of memory");
			break;
		}
		err = decode_line(line, s);
		if (err) {
			free(s);
			damos_err_prefix(err, "schemes line %zu: ", lineno);
			break;
		}
		arr[nr++] = s;
	}
	free(copy);
	if (err) {
		damos_schemes_free(arr, nr);
		return err;
	}
	*out = arr;
	*n = nr;
	return 0;
}
