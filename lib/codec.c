// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What dbgfs cannot carry: sysfs-only actions and later fields. */
static int dbgfs_expressible(const struct damos_scheme *s)
{
	int a = damos_scheme_action(s);

	if (a >= 0 && damos_actions[a].dbgfs < 0)
		return damos_err(-EOPNOTSUPP,
				 "dbgfs has no %s: it needs the sysfs interface (Linux 6.11+)",
				 damos_actions[a].name);
	for (int f = DBGFS_NR_FIELDS; f < DAMOS_NR_FIELDS; f++)
		if (damos_fields[f].unit != U_STAT &&
		    s->v[f] != damos_fields[f].def)
			return damos_err(-EOPNOTSUPP,
					 "dbgfs has no %s: it needs the sysfs interface",
					 damos_fields[f].label);
	if (s->nr_filters || s->nr_goals)
		return damos_err(-EOPNOTSUPP,
				 "dbgfs has no %s: they need the sysfs interface",
				 s->nr_filters ? "filters" : "quota goals");
	return 0;
}

static int encode_one(const struct damos_scheme *s, char *buf, size_t sz,
		      bool strict)
{
	const uint64_t *v = s->v;
	char action[32];
	int err, n;

	err = strict ? damos_scheme_validate(s) : damos_scheme_check_input(s);
	if (!err)
		err = dbgfs_expressible(s);
	if (err)
		return err;
	/* an action number the library does not know goes back as it was */
	if (s->action_word)
		snprintf(action, sizeof(action), "%s", s->action_word);
	else
		snprintf(action, sizeof(action), "%d",
			 damos_action_dbgfs_nr(v[DAMOS_F_ACTION]));
	n = snprintf(buf, sz,
		     "%llu %llu %llu %llu %llu %llu %s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		     (unsigned long long)v[0], (unsigned long long)v[1],
		     (unsigned long long)v[2], (unsigned long long)v[3],
		     (unsigned long long)v[4], (unsigned long long)v[5],
		     action,
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

int damos_dbgfs_encode_scheme(const struct damos_scheme *s, char *buf,
			      size_t sz)
{
	return encode_one(s, buf, sz, true);
}

char *damos_dbgfs_encode(struct damos_scheme *const *s, size_t n)
{
	return damos_dbgfs_encode_kept(s, n, true);
}

/* !@strict: schemes read from the kernel and unchanged go back as they are. */
char *damos_dbgfs_encode_kept(struct damos_scheme *const *s, size_t n,
			      bool strict)
{
	struct damos_buf b = { 0 };
	char line[512];

	if (!n)
		return strdup("\n") ?: damos_err_null(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int err = encode_one(s[i], line, sizeof(line), strict);

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
		return damos_err(-EINVAL, "%s: '%s' is %s", damos_fields[f].name,
				 tok, damos_parse_u64(tok, v) == -ERANGE ?
				 "too large" : "not a number");
	return 0;
}

static int decode_line(char *line, struct damos_scheme *s)
{
	char *tok, *save = NULL;
	uint64_t v[DBGFS_NR_FIELDS] = { 0 };
	int n = 0, err, a;

	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (n == DBGFS_NR_FIELDS)
			return damos_err(-EINVAL, "more than %d fields",
					 DBGFS_NR_FIELDS);
		err = parse_field(tok, n < DBGFS_NR_INPUTS ? n : DAMOS_F_NR_TRIED, &v[n]);
		if (err)
			return err;
		n++;
	}
	if (n != DBGFS_NR_INPUTS && n != DBGFS_NR_INPUTS + 2 &&
	    n != DBGFS_NR_FIELDS)
		return damos_err(-EINVAL, "%d fields (expected 18, 20 or 23)",
				 n);
	/* an action number this library does not know: kept as its word */
	if (v[DAMOS_F_ACTION] > INT32_MAX ||
	    (a = damos_action_from_dbgfs((long)v[DAMOS_F_ACTION])) < 0) {
		char word[32];

		snprintf(word, sizeof(word), "%llu",
			 (unsigned long long)v[DAMOS_F_ACTION]);
		s->action_word = strdup(word);
		if (!s->action_word)
			return damos_err(-ENOMEM, "out of memory");
		a = DAMOS_ACTION_UNKNOWN;
	}
	v[DAMOS_F_ACTION] = (uint64_t)a;
	for (int f = 0; f < DBGFS_NR_FIELDS; f++) {
		if (f != DAMOS_F_ACTION && v[f] > damos_fields[f].max)
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
		struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_STAT);

		if (tmp)
			arr = tmp;
		if (!tmp || !s) {
			free(s);
			err = damos_err(-ENOMEM, "out of memory");
			break;
		}
		err = decode_line(line, s);
		if (err) {
			damos_scheme_free(s);
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
