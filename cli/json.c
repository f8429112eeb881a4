// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --json: every command's document is built and printed by json-c.  A
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
 * unsigned 64-bit integers (see JSON in damoctl(8)): json-c, unlike
 * jansson (whose json_int_t is signed), writes and parses a uint64 exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

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

/*
 * json-c escapes a string but copies its bytes >= 0x80 as they are: an
 * invalid sequence (a file name, a kernel message) would make the
 * document invalid, so it becomes U+FFFD first.
 */
struct json_object *json_str(const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t len = strlen((const char *)s), o = 0;
	struct json_object *j;
	char *buf = malloc(len * 3 + 1);

	if (!buf)
		return json_object_new_string("");
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
			continue;
		}
		memcpy(buf + o, s, n);
		o += n;
		s += n;
	}
	buf[o] = '\0';
	j = json_object_new_string_len(buf, (int)o);
	free(buf);
	return j;
}

struct json_object *json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

void json_write(FILE *f, struct json_object *o)
{
	fputs(json_object_to_json_string_ext(o, JSON_FLAGS), f);
	json_object_put(o);
}

void json_print(FILE *f, struct json_object *o)
{
	json_write(f, o);
	fputc('\n', f);
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

static struct json_object *strings(char **arr, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_str(arr[i]));
	return a;
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
static struct json_object *result(char *doc)
{
	struct json_object *arr = json_object_new_array(), *one;
	size_t nr = 0;

	for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
		if (!line[strspn(line, " ")])
			continue;
		one = json_tokener_parse(line);
		/* a command's own document that does not parse is a bug: keep it seen */
		json_object_array_add(arr, one ? one : json_str(line));
		nr++;
	}
	if (nr != 1)
		return arr;
	one = json_object_get(json_object_array_get_idx(arr, 0));
	json_object_put(arr);
	return one;
}

void json_end(struct cli *c, FILE *saved, char **bufp, size_t *lenp, int status)
{
	struct json_object *o = NULL, *r = NULL;
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
	if (doc)
		r = result(buf);
	if (c->nr_errs) {
		o = json_object_new_object();
		json_object_object_add(o, "error", json_str(c->json_errs[0]));
		if (c->nr_errs > 1)
			json_object_object_add(o, "errors",
					       strings(c->json_errs, c->nr_errs));
	} else if (c->json_script) {
		o = json_object_new_object();
		json_object_object_add(o, "dry_run", json_str(c->json_script));
		if (r)
			json_object_object_add(o, "result", json_object_get(r));
	} else if (r && !c->nr_notes) {
		o = json_object_get(r);
	} else if (r) {
		o = json_object_new_object();
		json_object_object_add(o, "result", json_object_get(r));
	} else {
		o = json_object_new_object();
		json_object_object_add(o, "ok", json_object_new_boolean(!status));
	}
	if (c->nr_notes && json_object_is_type(o, json_type_object) && o != r)
		json_object_object_add(o, "notes",
				       strings(c->json_notes, c->nr_notes));
	json_print(f, o);
	json_object_put(r);
	free_strings(&c->json_errs, &c->nr_errs);
	free_strings(&c->json_notes, &c->nr_notes);
	free(c->json_script);
	c->json_script = NULL;
	free(buf);
	fflush(f);
}

/* {"KEY": "VALUE"} on a line of its own: help, an error, a dry run */
void json_print_str(FILE *f, const char *key, const char *value)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, key, json_str(value));
	json_print(f, o);
}

void json_print_version(FILE *f, const char *version, const char *lib)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "version", json_str(version));
	json_object_object_add(o, "libdamos", json_str(lib));
	json_print(f, o);
}

struct json_object *json_scheme(const struct damos_scheme *s, int idx)
{
	struct damos_filter_info fi = { .sz = sizeof(fi) };
	struct damos_goal_info gi = { .sz = sizeof(gi) };
	struct json_object *o = json_object_new_object(), *a;
	char line[4096];

	json_object_object_add(o, "index", json_object_new_int(idx));
	for (int fl = 0; fl < DAMOS_NR_FIELDS; fl++) {
		uint64_t v = damos_scheme_get(s, fl);
		struct json_object *j;

		if (fl == DAMOS_F_ACTION)
			j = json_str(damos_scheme_action_name(s));
		else if (fl == DAMOS_F_WMARKS_METRIC)
			j = json_str(damos_metric_name(v));
		else if (fl == DAMOS_F_TARGET_NID && v == DAMOS_NID_NONE)
			j = NULL;
		else
			j = json_u64(v);
		json_object_object_add(o, damos_field_name(fl), j);
	}
	a = json_object_new_array();
	for (size_t i = 0; !damos_scheme_filter(s, i, &fi); i++) {
		struct json_object *f = json_object_new_object();

		json_object_object_add(f, "type", json_str(fi.type_name));
		json_object_object_add(f, "matching",
				       json_object_new_boolean(fi.matching));
		if (fi.type == DAMOS_FILTER_MEMCG) {
			json_object_object_add(f, "memcg_path",
					       json_str(fi.memcg_path));
		} else if (fi.type == DAMOS_FILTER_ADDR) {
			json_object_object_add(f, "addr_start", json_u64(fi.addr_start));
			json_object_object_add(f, "addr_end", json_u64(fi.addr_end));
		} else if (fi.type == DAMOS_FILTER_TARGET) {
			json_object_object_add(f, "target_idx",
					       json_object_new_int(fi.target_idx));
		}
		json_object_array_add(a, f);
	}
	json_object_object_add(o, "filters", a);
	a = json_object_new_array();
	for (size_t i = 0; !damos_scheme_goal(s, i, &gi); i++) {
		struct json_object *g = json_object_new_object();

		json_object_object_add(g, "metric", json_str(gi.metric_name));
		json_object_object_add(g, "target", json_u64(gi.target));
		json_object_object_add(g, "current", json_u64(gi.current));
		json_object_array_add(a, g);
	}
	json_object_object_add(o, "goals", a);
	if (damos_scheme_format(s, line, sizeof(line)) > 0)
		json_object_object_add(o, "keywords", json_str(line));
	return o;
}

struct json_object *json_attrs(const struct damon_attrs *a)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "sample_us", json_u64(a->sample_us));
	json_object_object_add(o, "aggr_us", json_u64(a->aggr_us));
	json_object_object_add(o, "update_us", json_u64(a->update_us));
	json_object_object_add(o, "min_nr_regions", json_u64(a->min_nr_regions));
	json_object_object_add(o, "max_nr_regions", json_u64(a->max_nr_regions));
	return o;
}

struct json_object *json_targets(const struct damon_targets *t)
{
	struct json_object *o = json_object_new_object(), *arr;

	json_object_object_add(o, "operations", json_str(damon_ops_name(t->ops)));
	arr = json_object_new_array();
	for (size_t i = 0; i < t->nr; i++) {
		const struct damon_target *tg = &t->targets[i];
		struct json_object *j = json_object_new_object();
		struct json_object *regs = json_object_new_array();

		json_object_object_add(j, "pid", json_object_new_int(tg->pid));
		for (size_t r = 0; r < tg->nr_regions; r++) {
			struct json_object *reg = json_object_new_object();

			json_object_object_add(reg, "start", json_u64(tg->regions[r].start));
			json_object_object_add(reg, "end", json_u64(tg->regions[r].end));
			json_object_array_add(regs, reg);
		}
		json_object_object_add(j, "regions", regs);
		json_object_array_add(arr, j);
	}
	json_object_object_add(o, "targets", arr);
	return o;
}
