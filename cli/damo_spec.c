// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damo's kdamonds spec (damo v3.3.0: `damo args damon --format json`,
 * `damo start FILE`): read into the damoctl.conf(5) form that apply takes,
 * and written from what the kernel holds (damoctl export damo).
 *
 * damo writes values as its own strings ("1,000", "5 ms", "4.000 KiB",
 * "50 %", "max"); numbers are read exactly (128-bit arithmetic, no
 * floating point), and a value that is not a whole number of the kernel's
 * unit is an error, as in damoctl's own grammar.  A field damoctl does not
 * model is accepted only at the value that means "not used", so nothing
 * the spec asks for is dropped without a word.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef unsigned __int128 u128;

struct spec {
	struct cli *c;
	const char *name;
	unsigned int nr_errs;
	FILE *out;
	char **conf;			/* what out wrote so far */
	size_t *conf_len;
	char **paths;			/* [line - 1]: the JSON path it came from */
	size_t nr_paths;
	uint64_t sample_us, aggr_us;
};

/* The conf line written next comes from @path: apply's errors name it. */
static void mark(struct spec *sp, const char *path)
{
	size_t line = 0;
	char **np;

	fflush(sp->out);
	for (size_t i = 0; i < *sp->conf_len; i++)
		line += (*sp->conf)[i] == '\n';
	if (line >= sp->nr_paths) {
		np = realloc(sp->paths, (line + 1) * sizeof(*np));
		if (!np)
			return;
		memset(np + sp->nr_paths, 0, (line + 1 - sp->nr_paths) * sizeof(*np));
		sp->paths = np;
		sp->nr_paths = line + 1;
	}
	free(sp->paths[line]);
	sp->paths[line] = strdup(path);
}

void damo_spec_paths_free(char **paths, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
}

enum kind { K_COUNT, K_BYTES, K_US, K_MS, K_PERMIL, K_PERCENT };

static void bad(struct spec *sp, const char *path, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error(sp->c, EXIT_USAGE, "%s: %s: %s", sp->name, path, msg);
	sp->nr_errs++;
}

static const char *str_of(struct json_object *v)
{
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* @v as a message quotes it: a long value cut, so the message still fits */
static const char *shown(struct json_object *v)
{
	static char bufs[4][128];
	static unsigned int next;
	const char *s = str_of(v);
	size_t len = strlen(s);
	char *b = bufs[next++ % 4];

	if (len < 100)
		return s;
	snprintf(b, sizeof(bufs[0]), "%.80s... (%zu bytes)", s, len);
	return b;
}

/* Every key of @o must be in @keys (damo v3.3.0's fields). */
static bool fields(struct spec *sp, const char *path, struct json_object *o,
		   const char *const *keys)
{
	if (!json_object_is_type(o, json_type_object)) {
		bad(sp, path, "%s is not an object", shown(o));
		return false;
	}
	json_object_object_foreach(o, key, val) {
		const char *const *k = keys;

		(void)val;
		while (*k && strcmp(*k, key))
			k++;
		if (!*k)
			bad(sp, path, "unknown field '%.80s' (not in damo's kdamonds spec)", key);
	}
	return true;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static const struct unit {
	const char *name;
	enum kind kind;
	uint64_t mul;		/* in the kind's base: bytes, ns, ns, 1/1000 % */
} units[] = {
	{ "B", K_BYTES, 1 }, { "KiB", K_BYTES, 1ULL << 10 },
	{ "MiB", K_BYTES, 1ULL << 20 }, { "GiB", K_BYTES, 1ULL << 30 },
	{ "TiB", K_BYTES, 1ULL << 40 }, { "PiB", K_BYTES, 1ULL << 50 },
	{ "EiB", K_BYTES, 1ULL << 60 },
	{ "ns", K_US, 1 }, { "us", K_US, 1000 }, { "ms", K_US, 1000000 },
	{ "s", K_US, 1000000000ULL }, { "m", K_US, 60000000000ULL },
	{ "h", K_US, 3600000000000ULL }, { "d", K_US, 86400000000000ULL },
	{ "%", K_PERCENT, 1000 },
	{ NULL, 0, 0 },
};

/*
 * @v (a JSON number or damo's string) in the kernel's unit of @kind.
 * Return: 0, 1 for "max" (*out U64_MAX), -1 when bad (reported).
 */
static int value(struct spec *sp, const char *path, struct json_object *v,
		 enum kind kind, uint64_t *out)
{
	enum kind base = kind == K_MS ? K_US : kind == K_PERMIL ? K_PERCENT : kind;
	const char *s, *p;
	char unit[8] = "";
	u128 n = 0, scale = 1, mul = 1, div = 1, r;
	size_t u = 0;
	int digits = 0;

	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0 && json_object_get_uint64(v) == 0)
			goto not_value;
		*out = json_object_get_uint64(v);
		if (kind == K_COUNT || kind == K_BYTES)
			return 0;
		/* a bare number of a unit: as damo's own defaults read it */
		n = *out;
		goto units;
	}
	if (!json_object_is_type(v, json_type_string))
		goto not_value;
	s = json_object_get_string(v);
	/* damo's times of a minute or more: "1 m 30 s", "2 h 5 m" */
	if (base == K_US && strlen(s) < 96) {
		char buf[96], *save = NULL, *tok[9];
		int nt = 0;

		strcpy(buf, s);
		for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
			if (nt < 9)
				tok[nt++] = t;
			else
				nt = 9;
		if (nt >= 4 && nt <= 8 && nt % 2 == 0) {
			uint64_t sum = 0, part;

			for (int i = 0; i < nt; i += 2) {
				char piece[64];
				struct json_object *one;
				int rc;

				snprintf(piece, sizeof(piece), "%.40s %.8s", tok[i], tok[i + 1]);
				one = json_object_new_string(piece);
				rc = one ? value(sp, path, one, kind, &part) : -1;
				json_object_put(one);
				if (rc < 0)
					return -1;
				if (rc > 0 || __builtin_add_overflow(sum, part, &sum))
					goto too_large;
			}
			*out = sum;
			return 0;
		}
	}
	if (!strcmp(s, "max")) {
		*out = UINT64_MAX;
		return 1;
	}
	for (p = s; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (u128)(*p - '0');
		digits++;
		if (p[1] == ',' && p[2] >= '0' && p[2] <= '9')
			p++;
		if (n > (u128)UINT64_MAX * 1000)
			goto too_large;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9' && scale < 1000000000; p++) {
			n = n * 10 + (u128)(*p - '0');
			scale *= 10;
		}
	}
	/* times a unit's factor (< 2^47) stays within 128 bits */
	if (!digits)
		goto not_value;
	if (n >> 80)
		goto too_large;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && u < sizeof(unit) - 1)
		unit[u++] = *p++;
	unit[u] = '\0';
	if (*p)
		goto not_value;
units:
	if (*unit) {
		const struct unit *x = units;

		while (x->name && (strcmp(x->name, unit) || x->kind != base))
			x++;
		if (!x->name)
			goto not_value;
		mul = x->mul;
	} else if (kind == K_US) {
		mul = 1000;		/* bare: microseconds */
	} else if (kind == K_MS) {
		mul = 1000000;
	} else if (base == K_PERCENT) {
		goto not_value;		/* damo always says % */
	}
	/* to the kernel's unit: us, ms, per mille, 1/1000 % */
	if (kind == K_US)
		div = 1000;
	else if (kind == K_MS)
		div = 1000000;
	else if (kind == K_PERMIL)
		div = 100;
	/* damo's "no upper bound" in %: U64_MAX percent */
	/* (damo reading its own spec back writes 2^64: its floats) */
	if (base == K_PERCENT && scale == 1 && n >= UINT64_MAX && n <= (u128)UINT64_MAX + 1) {
		*out = UINT64_MAX;
		return 1;
	}
	r = n * mul;
	if (r % (scale * div)) {
		bad(sp, path, "%s is not a whole number of %s", shown(v),
		    kind == K_US ? "microseconds" : kind == K_MS ? "milliseconds" :
		    kind == K_PERMIL ? "per mille" : kind == K_BYTES ? "bytes" :
		    "units");
		return -1;
	}
	r /= scale * div;
	if (r > UINT64_MAX)
		goto too_large;
	*out = (uint64_t)r;
	return 0;
too_large:
	/* nothing is clamped: the kernel's fields are 64 bits */
	bad(sp, path, "%s is too large for the kernel's 64-bit field (\"max\" is no limit)",
	    shown(v));
	return -1;
not_value:
	bad(sp, path, "%s is not a %s", shown(v),
	    kind == K_COUNT ? "number" : kind == K_BYTES ? "size (B KiB MiB ...)" :
	    base == K_US ? "time (ns us ms s m h d)" : "percentage (N %)");
	return -1;
}

/* A field damoctl does not model: only its "unused" value is taken. */
static void unused(struct spec *sp, const char *path, struct json_object *v,
		   const char *ok, const char *what)
{
	char ov[64];

	if (!v || !strcmp(str_of(v), ok))
		return;
	/* a number "0" and the string "0" are the same to damo */
	snprintf(ov, sizeof(ov), "\"%s\"", json_object_get_string(v));
	if (!strcmp(ov, ok))
		return;
	bad(sp, path, "%s: damoctl does not model %s (only %s is taken)",
	    shown(v), what, ok);
}

static void path_of(char *buf, size_t len, const char *parent, const char *key)
{
	/* a path longer than the buffer is cut: it still names the place */
	if (snprintf(buf, len, "%s.%s", parent, key) >= (int)len)
		buf[len - 1] = '\0';
}

/* "KEY MIN MAX" of an access pattern range, in damoctl's words. */
static void range(struct spec *sp, const char *parent, struct json_object *o,
		  const char *key, enum kind kind, const char *word)
{
	static const char *const mm[] = { "min", "max", NULL };
	struct json_object *r = get(o, key);
	char path[512], p2[560];
	uint64_t v[2] = { 0, UINT64_MAX };
	int m[2] = { 0, 1 };

	path_of(path, sizeof(path), parent, key);
	if (!r)
		goto print;
	if (!fields(sp, path, r, mm))
		return;
	for (int i = 0; i < 2; i++) {
		struct json_object *x = get(r, mm[i]);

		/* access rates without "%": samples, as export writes an inexact rate */
		bool samples = kind == K_PERCENT && x &&
			       (!json_object_is_type(x, json_type_string) ||
				!strchr(json_object_get_string(x), '%'));

		path_of(p2, sizeof(p2), path, mm[i]);
		if (x)
			m[i] = value(sp, p2, x, samples ? K_COUNT : kind, &v[i]);
		if (m[i] < 0)
			return;
		if (kind == K_PERCENT && m[i] == 0 && !samples) {
			uint64_t max_nr = sp->aggr_us / (sp->sample_us ? sp->sample_us : 1);
			u128 x100 = (u128)v[i] * max_nr;

			/* v is in 1/1000 %: samples = v * max_nr / 100000 */
			if (x100 % 100000) {
				bad(sp, p2, "%s is not a whole number of samples (%llu a %llu us aggregation interval)",
				    shown(x), (unsigned long long)max_nr,
				    (unsigned long long)sp->aggr_us);
				return;
			}
			v[i] = (uint64_t)(x100 / 100000);
		}
	}
print:
	fprintf(sp->out, " %s", word);
	for (int i = 0; i < 2; i++) {
		if (m[i] == 1)
			fprintf(sp->out, " max");
		else if (kind == K_US)
			fprintf(sp->out, " %lluus", (unsigned long long)v[i]);
		else
			fprintf(sp->out, " %llu", (unsigned long long)v[i]);
	}
}

static const char *const k_root[] = { "kdamonds", NULL };
static const char *const k_kdamond[] = { "refresh_ms", "contexts", "state", "pid", NULL };
static const char *const k_ctx[] = { "ops", "addr_unit", "targets", "intervals",
	"nr_regions", "probes", "sample_control", "pause", "schemes", NULL };
static const char *const k_target[] = { "pid", "obsolete", "regions", NULL };
static const char *const k_region[] = { "start", "end", NULL };
static const char *const k_intervals[] = { "sample_us", "aggr_us", "ops_update_us",
	"intervals_goal", NULL };
static const char *const k_goal_iv[] = { "access_bp", "aggrs", "min_sample_us",
	"max_sample_us", NULL };
static const char *const k_nr_regions[] = { "min", "max", NULL };
static const char *const k_scheme[] = { "action", "target_nid", "dests",
	"access_pattern", "apply_interval_us", "quotas", "watermarks", "filters",
	"stats", "tried_regions", NULL };
static const char *const k_pattern[] = { "sz_bytes", "nr_accesses", "age", NULL };
static const char *const k_quotas[] = { "time_ms", "sz_bytes", "reset_interval_ms",
	"fail_charge_num", "fail_charge_denom", "goals", "goal_tuner",
	"effective_sz_bytes", "weights", NULL };
static const char *const k_weights[] = { "sz_permil", "nr_accesses_permil",
	"age_permil", NULL };
static const char *const k_wmarks[] = { "metric", "interval_us", "high_permil",
	"mid_permil", "low_permil", NULL };
static const char *const k_filter[] = { "filter_type", "matching", "allow",
	"memcg_path", "address_range", "damon_target_idx", "hugepage_size", NULL };
static const char *const k_goal[] = { "metric", "nid", "memcg_path",
	"target_value", "current_value", NULL };

/* @v, if given, in @kind; @def otherwise.  Return: as value(). */
static int opt_value(struct spec *sp, const char *parent, struct json_object *o,
		     const char *key, enum kind kind, uint64_t def, uint64_t *out)
{
	struct json_object *v = get(o, key);
	char path[512];

	*out = def;
	if (!v)
		return 0;
	path_of(path, sizeof(path), parent, key);
	return value(sp, path, v, kind, out);
}

static bool is_array(struct spec *sp, const char *path, struct json_object *v)
{
	if (json_object_is_type(v, json_type_array))
		return true;
	bad(sp, path, "%s is not an array", shown(v));
	return false;
}

static void intervals(struct spec *sp, const char *cpath, struct json_object *ctx)
{
	struct json_object *iv = get(ctx, "intervals"), *nr = get(ctx, "nr_regions");
	char path[512], p2[600];
	uint64_t upd, mn, mx;

	sp->sample_us = 5000;
	sp->aggr_us = 100000;
	upd = 60000000;
	mn = 10;
	mx = 1000;
	path_of(path, sizeof(path), cpath, "intervals");
	if (iv && fields(sp, path, iv, k_intervals)) {
		struct json_object *g = get(iv, "intervals_goal");

		opt_value(sp, path, iv, "sample_us", K_US, 5000, &sp->sample_us);
		opt_value(sp, path, iv, "aggr_us", K_US, 100000, &sp->aggr_us);
		opt_value(sp, path, iv, "ops_update_us", K_US, 60000000, &upd);
		path_of(p2, sizeof(p2), path, "intervals_goal");
		if (g && fields(sp, p2, g, k_goal_iv)) {
			uint64_t x;
			char p3[700];

			json_object_object_foreach(g, key, val) {
				path_of(p3, sizeof(p3), p2, key);
				if (value(sp, p3, val, !strcmp(key, "access_bp") ?
					  K_PERCENT : !strcmp(key, "aggrs") ? K_COUNT :
					  K_US, &x) == 0 && x)
					bad(sp, p3, "%s: damoctl does not model intervals auto-tuning (only 0 is taken)",
					    shown(val));
			}
		}
	}
	path_of(path, sizeof(path), cpath, "nr_regions");
	if (nr && fields(sp, path, nr, k_nr_regions)) {
		opt_value(sp, path, nr, "min", K_COUNT, 10, &mn);
		opt_value(sp, path, nr, "max", K_COUNT, 1000, &mx);
	}
	mark(sp, cpath);
	fprintf(sp->out, "attrs sample %lluus aggr %lluus update %lluus regions %llu %llu\n",
		(unsigned long long)sp->sample_us, (unsigned long long)sp->aggr_us,
		(unsigned long long)upd, (unsigned long long)mn,
		(unsigned long long)mx);
}

static void targets(struct spec *sp, const char *cpath, struct json_object *ctx)
{
	struct json_object *ops = get(ctx, "ops"), *ts = get(ctx, "targets");
	const char *o = ops ? json_object_get_string(ops) : "paddr";
	char path[512], p2[600], p3[700], p4[800];

	path_of(path, sizeof(path), cpath, "ops");
	if (!o || (strcmp(o, "paddr") && strcmp(o, "vaddr") && strcmp(o, "fvaddr"))) {
		bad(sp, path, "%s is not an operations set (vaddr, fvaddr, paddr)",
		    ops ? shown(ops) : "null");
		return;
	}
	path_of(path, sizeof(path), cpath, "targets");
	/* no target: damoctl.conf has no line for that; the live ones stay */
	if (!ts || !is_array(sp, path, ts) || !json_object_array_length(ts))
		return;
	mark(sp, path);
	fprintf(sp->out, "target %s", o);
	for (size_t i = 0; i < json_object_array_length(ts); i++) {
		struct json_object *t = json_object_array_get_idx(ts, i), *pid, *rs;

		if (snprintf(p2, sizeof(p2), "%s[%zu]", path, i) >= (int)sizeof(p2))
			p2[sizeof(p2) - 1] = '\0';
		if (!fields(sp, p2, t, k_target))
			continue;
		path_of(p3, sizeof(p3), p2, "obsolete");
		unused(sp, p3, get(t, "obsolete"), "false", "obsolete targets");
		pid = get(t, "pid");
		path_of(p3, sizeof(p3), p2, "pid");
		if (!strcmp(o, "vaddr")) {
			if (!json_object_is_type(pid, json_type_int) ||
			    json_object_get_int64(pid) <= 0)
				bad(sp, p3, "%s: a vaddr target needs a pid",
				    pid ? shown(pid) : "null");
			else
				fprintf(sp->out, " pid %lld",
					(long long)json_object_get_int64(pid));
		} else if (pid && !json_object_is_type(pid, json_type_null)) {
			bad(sp, p3, "%s: a %s target has no pid", shown(pid), o);
		}
		rs = get(t, "regions");
		path_of(p3, sizeof(p3), p2, "regions");
		if (!rs || !is_array(sp, p3, rs))
			continue;
		for (size_t r = 0; r < json_object_array_length(rs); r++) {
			struct json_object *reg = json_object_array_get_idx(rs, r);
			uint64_t s = 0, e = 0;

			if (snprintf(p4, sizeof(p4), "%s[%zu]", p3, r) >= (int)sizeof(p4))
			p4[sizeof(p4) - 1] = '\0';
			if (!fields(sp, p4, reg, k_region))
				continue;
			if (!strcmp(o, "vaddr")) {
				bad(sp, p4, "damoctl sets no regions of a vaddr target (the kernel finds them)");
				continue;
			}
			if (opt_value(sp, p4, reg, "start", K_COUNT, 0, &s) ||
			    opt_value(sp, p4, reg, "end", K_COUNT, 0, &e))
				continue;
			fprintf(sp->out, " region %llu %llu",
				(unsigned long long)s, (unsigned long long)e);
		}
	}
	fputc('\n', sp->out);
}

static void filters(struct spec *sp, const char *spath, struct json_object *f)
{
	char path[512], p2[600], p3[700];
	size_t n;

	path_of(path, sizeof(path), spath, "filters");
	if (!f || !is_array(sp, path, f))
		return;
	n = json_object_array_length(f);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(f, i), *t, *m, *a, *v;
		const char *type;
		bool matching, allow;

		if (snprintf(p2, sizeof(p2), "%s[%zu]", path, i) >= (int)sizeof(p2))
			p2[sizeof(p2) - 1] = '\0';
		if (!fields(sp, p2, x, k_filter))
			continue;
		t = get(x, "filter_type");
		m = get(x, "matching");
		a = get(x, "allow");
		type = t ? json_object_get_string(t) : "";
		matching = !m || json_object_get_boolean(m);
		allow = a && json_object_get_boolean(a);
		/*
		 * Kernels before 6.14 have reject filters only.  An allow
		 * filter that comes last is the reject filter of the
		 * opposite match: what it does not allow, the default
		 * (the opposite of the last filter) rejects.
		 */
		path_of(p3, sizeof(p3), p2, "allow");
		if (allow && i != n - 1) {
			bad(sp, p3, "true: damoctl models reject filters, and an allow filter only as the last one");
			continue;
		}
		if (allow) {
			matching = !matching;
			cli_note(sp->c, "%s: %s: allow filter, last: written as the reject filter of the opposite match",
				 sp->name, p2);
		}
		fprintf(sp->out, " filter%s", matching ? "" : " not");
		path_of(p3, sizeof(p3), p2, "filter_type");
		if (!strcmp(type, "anon") || !strcmp(type, "young")) {
			fprintf(sp->out, " %s", type);
		} else if (!strcmp(type, "memcg")) {
			v = get(x, "memcg_path");
			path_of(p3, sizeof(p3), p2, "memcg_path");
			if (!json_object_is_type(v, json_type_string) ||
			    strpbrk(json_object_get_string(v), " \t\n'\"\\#"))
				bad(sp, p3, "%s: a memcg filter needs a path (without blanks or quotes)",
				    v ? shown(v) : "null");
			else
				fprintf(sp->out, " memcg %s", json_object_get_string(v));
		} else if (!strcmp(type, "addr")) {
			uint64_t s = 0, e = 0;

			v = get(x, "address_range");
			path_of(p3, sizeof(p3), p2, "address_range");
			if (!v || !fields(sp, p3, v, k_region) ||
			    opt_value(sp, p3, v, "start", K_COUNT, 0, &s) ||
			    opt_value(sp, p3, v, "end", K_COUNT, 0, &e))
				continue;
			fprintf(sp->out, " addr %llu %llu", (unsigned long long)s,
				(unsigned long long)e);
		} else if (!strcmp(type, "target")) {
			v = get(x, "damon_target_idx");
			path_of(p3, sizeof(p3), p2, "damon_target_idx");
			if (!json_object_is_type(v, json_type_int) ||
			    json_object_get_int64(v) < 0)
				bad(sp, p3, "%s: a target filter needs a target index",
				    v ? shown(v) : "null");
			else
				fprintf(sp->out, " target %lld",
					(long long)json_object_get_int64(v));
		} else {
			bad(sp, p3, "%s: damoctl does not model this filter type (anon, young, memcg, addr, target)",
			    t ? shown(t) : "null");
		}
		path_of(p3, sizeof(p3), p2, "hugepage_size");
		unused(sp, p3, get(x, "hugepage_size"), "null", "hugepage_size filters");
	}
}

static void goals(struct spec *sp, const char *qpath, struct json_object *g)
{
	char path[512], p2[600], p3[700];

	path_of(path, sizeof(path), qpath, "goals");
	if (!g || !is_array(sp, path, g))
		return;
	for (size_t i = 0; i < json_object_array_length(g); i++) {
		struct json_object *x = json_object_array_get_idx(g, i), *m;
		uint64_t tv = 0, cv = 0;
		const char *metric;

		if (snprintf(p2, sizeof(p2), "%s[%zu]", path, i) >= (int)sizeof(p2))
			p2[sizeof(p2) - 1] = '\0';
		if (!fields(sp, p2, x, k_goal))
			continue;
		m = get(x, "metric");
		metric = m ? json_object_get_string(m) : "";
		path_of(p3, sizeof(p3), p2, "metric");
		if (damos_goal_metric_from_name(metric) < 0) {
			bad(sp, p3, "%s: damoctl does not model this goal metric (user_input, some_mem_psi_us)",
			    m ? shown(m) : "null");
			continue;
		}
		path_of(p3, sizeof(p3), p2, "nid");
		unused(sp, p3, get(x, "nid"), "null", "a goal's node");
		path_of(p3, sizeof(p3), p2, "memcg_path");
		unused(sp, p3, get(x, "memcg_path"), "null", "a goal's cgroup");
		if (opt_value(sp, p2, x, "target_value", K_COUNT, 0, &tv) ||
		    opt_value(sp, p2, x, "current_value", K_COUNT, 0, &cv))
			continue;
		fprintf(sp->out, " goal %s %llu %llu", metric,
			(unsigned long long)tv, (unsigned long long)cv);
	}
}

static void scheme(struct spec *sp, const char *spath, struct json_object *s)
{
	struct json_object *a = get(s, "action"), *q, *w, *x;
	char path[512], p2[600];
	uint64_t v, t, z, r, w3[3], iv, hi, mid, lo;
	const char *metric;
	int m;

	if (!fields(sp, spath, s, k_scheme))
		return;
	path_of(path, sizeof(path), spath, "action");
	if (!a || damos_action_from_name(json_object_get_string(a)) < 0) {
		bad(sp, path, "%s is not an action damoctl knows",
		    a ? shown(a) : "null");
		return;
	}
	mark(sp, spath);
	fprintf(sp->out, "scheme %s", json_object_get_string(a));
	x = get(s, "access_pattern");
	path_of(path, sizeof(path), spath, "access_pattern");
	if (x && !fields(sp, path, x, k_pattern))
		x = NULL;
	range(sp, path, x, "sz_bytes", K_BYTES, "sz");
	range(sp, path, x, "nr_accesses", K_PERCENT, "access");
	range(sp, path, x, "age", K_US, "age");

	q = get(s, "quotas");
	path_of(path, sizeof(path), spath, "quotas");
	if (q && fields(sp, path, q, k_quotas)) {
		if (!opt_value(sp, path, q, "time_ms", K_MS, 0, &t) &&
		    !opt_value(sp, path, q, "sz_bytes", K_BYTES, 0, &z) &&
		    (m = opt_value(sp, path, q, "reset_interval_ms", K_MS, 0, &r)) >= 0) {
			fprintf(sp->out, " quota time %llu size %llu reset ",
				(unsigned long long)t, (unsigned long long)z);
			if (m == 1)
				fprintf(sp->out, "max");
			else
				fprintf(sp->out, "%llu", (unsigned long long)r);
		}
		path_of(p2, sizeof(p2), path, "fail_charge_num");
		unused(sp, p2, get(q, "fail_charge_num"), "\"0\"", "failure charging");
		path_of(p2, sizeof(p2), path, "fail_charge_denom");
		unused(sp, p2, get(q, "fail_charge_denom"), "\"0\"", "failure charging");
		path_of(p2, sizeof(p2), path, "goal_tuner");
		unused(sp, p2, get(q, "goal_tuner"), "\"consist\"", "goal tuners");
		/* effective_sz_bytes: what the kernel computed, not a setting */
		w = get(q, "weights");
		path_of(p2, sizeof(p2), path, "weights");
		if (w && fields(sp, p2, w, k_weights) &&
		    !opt_value(sp, p2, w, "sz_permil", K_PERMIL, 0, &w3[0]) &&
		    !opt_value(sp, p2, w, "nr_accesses_permil", K_PERMIL, 0, &w3[1]) &&
		    !opt_value(sp, p2, w, "age_permil", K_PERMIL, 0, &w3[2]))
			fprintf(sp->out, " weights %llu %llu %llu",
				(unsigned long long)w3[0], (unsigned long long)w3[1],
				(unsigned long long)w3[2]);
		goals(sp, path, get(q, "goals"));
	}
	w = get(s, "watermarks");
	path_of(path, sizeof(path), spath, "watermarks");
	if (w && fields(sp, path, w, k_wmarks)) {
		x = get(w, "metric");
		metric = x ? json_object_get_string(x) : "none";
		path_of(p2, sizeof(p2), path, "metric");
		if (damos_metric_from_name(metric) < 0)
			bad(sp, p2, "%s is not a watermarks metric (none, free_mem_rate)",
			    shown(x));
		else if (!opt_value(sp, path, w, "interval_us", K_US, 0, &iv) &&
			 !opt_value(sp, path, w, "high_permil", K_PERMIL, 0, &hi) &&
			 !opt_value(sp, path, w, "mid_permil", K_PERMIL, 0, &mid) &&
			 !opt_value(sp, path, w, "low_permil", K_PERMIL, 0, &lo) &&
			 (strcmp(metric, "none") || iv || hi || mid || lo))
			fprintf(sp->out, " wmarks %s %llu %llu %llu %llu", metric,
				(unsigned long long)iv, (unsigned long long)hi,
				(unsigned long long)mid, (unsigned long long)lo);
	}
	x = get(s, "target_nid");
	path_of(path, sizeof(path), spath, "target_nid");
	if (x && !json_object_is_type(x, json_type_null)) {
		if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 0)
			bad(sp, path, "%s is not a node id", shown(x));
		else
			fprintf(sp->out, " nid %lld", (long long)json_object_get_int64(x));
	}
	if (!opt_value(sp, spath, s, "apply_interval_us", K_US, 0, &v) && v)
		fprintf(sp->out, " apply_interval %lluus", (unsigned long long)v);
	x = get(s, "dests");
	path_of(path, sizeof(path), spath, "dests");
	if (x && (!json_object_is_type(x, json_type_array) || json_object_array_length(x)))
		bad(sp, path, "%s: damoctl does not model migration destinations (only [] is taken; nid gives one node)",
		    shown(x));
	filters(sp, spath, get(s, "filters"));
	fputc('\n', sp->out);
}

static void context(struct spec *sp, const char *cpath, struct json_object *ctx)
{
	struct json_object *ss = get(ctx, "schemes"), *sc;
	char path[512], p2[600];

	if (!fields(sp, cpath, ctx, k_ctx))
		return;
	path_of(path, sizeof(path), cpath, "addr_unit");
	unused(sp, path, get(ctx, "addr_unit"), "\"1 B\"", "address units");
	path_of(path, sizeof(path), cpath, "pause");
	unused(sp, path, get(ctx, "pause"), "false", "paused contexts");
	path_of(path, sizeof(path), cpath, "probes");
	unused(sp, path, get(ctx, "probes"), "[]", "probes");
	sc = get(ctx, "sample_control");
	path_of(path, sizeof(path), cpath, "sample_control");
	unused(sp, path, sc,
	       "{\"primitives_enabled\":{\"page_table\":true,\"page_fault\":false},\"sample_filters\":[]}",
	       "sampling primitives or filters");
	intervals(sp, cpath, ctx);
	targets(sp, cpath, ctx);
	path_of(path, sizeof(path), cpath, "schemes");
	if (!ss) {
		return;
	} else if (!is_array(sp, path, ss)) {
		return;
	} else if (!json_object_array_length(ss)) {
		mark(sp, path);
		fprintf(sp->out, "scheme none\n");
		return;
	}
	for (size_t i = 0; i < json_object_array_length(ss); i++) {
		if (snprintf(p2, sizeof(p2), "%s[%zu]", path, i) >= (int)sizeof(p2))
			p2[sizeof(p2) - 1] = '\0';
		scheme(sp, p2, json_object_array_get_idx(ss, i));
	}
}

/*
 * What json-c takes without a word, found in the text it has parsed (so
 * the text is JSON): an integer past 64 bits, which it saturates
 * (184467440737095516160 would be U64_MAX, "no limit"), and a key given
 * twice in one object, of which it keeps the last.  Both are refused as
 * the string forms are: nothing is clamped, nothing silently dropped.
 */
struct scan {
	struct spec *sp;
	const char *p, *end;
	char path[512];
};

static void scan_ws(struct scan *s)
{
	while (s->p < s->end) {
		if (*s->p && strchr(" \t\r\n", *s->p)) {
			s->p++;
		} else if (s->end - s->p > 1 && !memcmp(s->p, "/*", 2)) {
			const char *e = memmem(s->p + 2, s->end - s->p - 2, "*/", 2);

			s->p = e ? e + 2 : s->end;
		} else if (s->end - s->p > 1 && !memcmp(s->p, "//", 2)) {
			const char *e = memchr(s->p, '\n', s->end - s->p);

			s->p = e ? e : s->end;
		} else {
			break;
		}
	}
}

/* a string at s->p; its text, escapes undone, in *out (NULL: skip it) */
static bool scan_string(struct scan *s, char **out)
{
	char q = *s->p++, *b = NULL;
	size_t n = 0;

	if (out) {
		b = malloc(s->end - s->p + 1);
		if (!b)
			return false;
	}
	while (s->p < s->end && *s->p != q) {
		char ch = *s->p++;

		if (ch == '\\' && s->p < s->end) {
			ch = *s->p++;
			if (ch == 'u' && s->end - s->p >= 4) {
				unsigned int u = 0;

				for (int i = 0; i < 4; i++, s->p++)
					u = u * 16 + (unsigned int)(*s->p <= '9' ? *s->p - '0' :
								    (*s->p | 0x20) - 'a' + 10);
				/* UTF-8, as json-c keeps the key */
				if (b && u >= 0x800) {
					b[n++] = (char)(0xe0 | u >> 12);
					b[n++] = (char)(0x80 | (u >> 6 & 0x3f));
				} else if (b && u >= 0x80) {
					b[n++] = (char)(0xc0 | u >> 6);
				}
				ch = (char)(u < 0x80 ? u : 0x80 | (u & 0x3f));
			} else {
				const char *e = strchr("b\bf\fn\nr\rt\t", ch);

				if (e && (e - "b\bf\fn\nr\rt\t") % 2 == 0)
					ch = e[1];
			}
		}
		if (b)
			b[n++] = ch ? ch : (char)0x80;
	}
	if (s->p < s->end)
		s->p++;
	if (b) {
		b[n] = '\0';
		*out = b;
	}
	return true;
}

static void scan_number(struct scan *s)
{
	const char *st = s->p, *d;
	size_t nd;
	bool neg = *s->p == '-', intg = true;

	if (neg || *s->p == '+')
		s->p++;
	while (s->p < s->end && *s->p == '0' && s->end - s->p > 1 &&
	       s->p[1] >= '0' && s->p[1] <= '9')
		s->p++;
	d = s->p;
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	nd = (size_t)(s->p - d);
	while (s->p < s->end && *s->p && strchr(".eE+-0123456789", *s->p)) {
		intg = false;
		s->p++;
	}
	if (!intg)
		return;
	/* past 18446744073709551615 (or below -9223372036854775808) */
	if (nd > 20 || (nd == 20 && memcmp(d, "18446744073709551615", 20) > 0) ||
	    (neg && (nd > 19 || (nd == 19 && memcmp(d, "9223372036854775808", 19) > 0))))
		bad(s->sp, s->path, "%.*s%s is too large for the kernel's 64-bit field (\"max\" is no limit)",
		    (int)(s->p - st > 80 ? 80 : s->p - st), st, s->p - st > 80 ? "..." : "");
}

static void scan_value(struct scan *s, unsigned int depth)
{
	size_t plen = strlen(s->path);

	scan_ws(s);
	if (s->p >= s->end || depth > 64) {
		s->p = s->end;
	} else if (*s->p == '{') {
		struct json_object *seen = json_object_new_object();

		for (s->p++, scan_ws(s); s->p < s->end && *s->p != '}';) {
			char *key = NULL;

			if ((*s->p != '"' && *s->p != '\'') || !seen ||
			    !scan_string(s, &key)) {
				s->p = s->end;
				break;
			}
			if (json_object_object_get_ex(seen, key, NULL))
				bad(s->sp, s->path[0] ? s->path : "$",
				    "'%.80s' is given twice (a key once in an object)", key);
			else
				json_object_object_add(seen, key, NULL);
			if (snprintf(s->path + plen, sizeof(s->path) - plen, "%s.%s",
				     plen ? "" : "$", key) >= (int)(sizeof(s->path) - plen))
				s->path[sizeof(s->path) - 1] = '\0';
			free(key);
			scan_ws(s);
			if (s->p < s->end && *s->p == ':')
				s->p++;
			scan_value(s, depth + 1);
			s->path[plen] = '\0';
			scan_ws(s);
			if (s->p < s->end && *s->p == ',')
				s->p++, scan_ws(s);
		}
		json_object_put(seen);
		if (s->p < s->end)
			s->p++;
	} else if (*s->p == '[') {
		size_t i = 0;

		for (s->p++, scan_ws(s); s->p < s->end && *s->p != ']'; i++) {
			if (snprintf(s->path + plen, sizeof(s->path) - plen, "%s[%zu]",
				     plen ? "" : "$", i) >= (int)(sizeof(s->path) - plen))
				s->path[sizeof(s->path) - 1] = '\0';
			scan_value(s, depth + 1);
			s->path[plen] = '\0';
			scan_ws(s);
			if (s->p < s->end && *s->p == ',')
				s->p++, scan_ws(s);
		}
		if (s->p < s->end)
			s->p++;
	} else if (*s->p == '"' || *s->p == '\'') {
		scan_string(s, NULL);
	} else if (*s->p == '-' || *s->p == '+' || (*s->p >= '0' && *s->p <= '9')) {
		scan_number(s);
	} else {
		while (s->p < s->end && ((*s->p | 0x20) >= 'a' && (*s->p | 0x20) <= 'z'))
			s->p++;
		if (s->p < s->end && (!*s->p || !strchr(",]} \t\r\n/", *s->p)))
			s->p = s->end;	/* not what json-c takes: stop */
	}
}

bool damo_spec_detect(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	return i < len && buf[i] == '{';
}

int damo_spec_to_conf(struct cli *c, const char *name, const char *buf,
		      size_t len, char **conf, char ***paths, size_t *nr_paths)
{
	struct spec sp = { .c = c, .name = name };
	struct scan sc = { .sp = &sp, .p = buf, .end = buf + len };
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root, *ks, *k, *cs;
	enum json_tokener_error e;
	size_t clen;

	*conf = NULL;
	if (!tok)
		return cli_error(c, EXIT_FAIL, "out of memory");
	root = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	if (!root || e != json_tokener_success ||
	    json_tokener_get_parse_end(tok) +
	    strspn(buf + json_tokener_get_parse_end(tok), " \t\r\n") < len) {
		size_t off = json_tokener_get_parse_end(tok);

		json_tokener_free(tok);
		json_object_put(root);
		return cli_error(c, EXIT_USAGE, "%s: not JSON at byte %zu: %s", name, off,
				 e == json_tokener_success ? "text after the document" :
				 e == json_tokener_continue ?
				 "the document ends before its last { [ or \" is closed" :
				 json_tokener_error_desc(e));
	}
	json_tokener_free(tok);
	*paths = NULL;
	*nr_paths = 0;
	scan_value(&sc, 0);
	sp.conf = conf;
	sp.conf_len = &clen;
	sp.out = open_memstream(conf, &clen);
	if (!sp.out) {
		json_object_put(root);
		return cli_error(c, EXIT_FAIL, "out of memory");
	}
	fprintf(sp.out, "# from damo's kdamonds spec %s\n", name);
	ks = get(root, "kdamonds");
	if (fields(&sp, "$", root, k_root) && !ks)
		bad(&sp, "$", "no 'kdamonds': not a damo kdamonds spec");
	else if (ks && is_array(&sp, "$.kdamonds", ks)) {
		size_t nk = json_object_array_length(ks);

		/* one kdamond: the one --kdamond picks; several: all of sysfs */
		if (!nk)
			bad(&sp, "$.kdamonds", "no kdamond");
		for (size_t i = 0; i < nk; i++) {
			char kp[64], p2[96];

			snprintf(kp, sizeof(kp), "$.kdamonds[%zu]", i);
			k = json_object_array_get_idx(ks, i);
			if (!k || !fields(&sp, kp, k, k_kdamond))
				continue;
			if (nk > 1) {
				mark(&sp, kp);
				fprintf(sp.out, "kdamond %zu\n", i);
			}
			snprintf(p2, sizeof(p2), "%s.refresh_ms", kp);
			unused(&sp, p2, get(k, "refresh_ms"),
			       "0", "refreshing a kdamond's status");
			cs = get(k, "contexts");
			snprintf(p2, sizeof(p2), "%s.contexts", kp);
			if (!cs || !is_array(&sp, p2, cs))
				bad(&sp, kp, "no 'contexts'");
			else if (json_object_array_length(cs) != 1)
				bad(&sp, p2, "%zu contexts: Linux's sysfs takes one context a kdamond (nr_contexts 0 or 1; damo's --nr_ctxs 1 1 makes two kdamonds of one)",
				    json_object_array_length(cs));
			else {
				snprintf(p2, sizeof(p2), "%s.contexts[0]", kp);
				context(&sp, p2, json_object_array_get_idx(cs, 0));
			}
		}
	}
	fclose(sp.out);
	json_object_put(root);
	if (sp.nr_errs) {
		damo_spec_paths_free(sp.paths, sp.nr_paths);
		free(*conf);
		*conf = NULL;
		return cli_error(c, EXIT_USAGE, "%s: %u error%s in the damo spec; nothing was changed",
				 name, sp.nr_errs, sp.nr_errs == 1 ? "" : "s");
	}
	*paths = sp.paths;
	*nr_paths = sp.nr_paths;
	return EXIT_OK;
}

/* ---- damoctl export damo: the kernel's setup in damo's words ---- */

/* "1,000": damo's thousands separators */
static struct json_object *count(uint64_t v)
{
	char d[32], o[48];
	int n = snprintf(d, sizeof(d), "%llu", (unsigned long long)v), k = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			o[k++] = ',';
		o[k++] = d[i];
	}
	o[k] = '\0';
	return json_object_new_string(o);
}

static struct json_object *with_unit(uint64_t v, const char *unit)
{
	struct json_object *c = count(v);
	char buf[64];

	snprintf(buf, sizeof(buf), "%s %s", json_object_get_string(c), unit);
	json_object_put(c);
	return json_object_new_string(buf);
}

/* "4.000 KiB" where exact, as damo writes sizes; else bytes */
static struct json_object *bytes(uint64_t v)
{
	static const char *const u[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	char buf[64];
	int i;

	if (v == UINT64_MAX)
		return json_object_new_string("max");
	if (!v || v % 1024)
		return with_unit(v, "B");
	for (i = 0; i < 5 && !((v >> (10 * (i + 2))) << (10 * (i + 2)) ^ v) &&
	     v >> (10 * (i + 2)); i++)
		;
	snprintf(buf, sizeof(buf), "%llu.000 %s",
		 (unsigned long long)(v >> (10 * (i + 1))), u[i]);
	return json_object_new_string(buf);
}

/* microseconds as "0 ns", "5 ms", "1 s" */
/* damo's whole seconds (format_time_ns): "1 h 2 m 3 s", "1 m", "5 s" */
static struct json_object *time_s(uint64_t t)
{
	char buf[96];
	int n = 0;

	if (t >= 3600)
		n += snprintf(buf + n, sizeof(buf) - n, "%llu h", (unsigned long long)(t / 3600));
	t %= 3600;
	if (t >= 60 || (n && t >= 60))
		n += snprintf(buf + n, sizeof(buf) - n, "%s%llu m", n ? " " : "",
			      (unsigned long long)(t / 60));
	t %= 60;
	if (t || !n)
		snprintf(buf + n, sizeof(buf) - n, "%s%llu s", n ? " " : "", (unsigned long long)t);
	return json_object_new_string(buf);
}

static struct json_object *time_us(uint64_t us)
{
	if (us == UINT64_MAX)
		return json_object_new_string("max");
	if (!us)
		return json_object_new_string("0 ns");
	if (us % 1000000 == 0)
		return us / 1000000 >= 60 ? time_s(us / 1000000) : with_unit(us / 1000000, "s");
	if (us % 1000 == 0)
		return with_unit(us / 1000, "ms");
	return with_unit(us, "us");
}

static struct json_object *time_ms(uint64_t ms)
{
	return ms == UINT64_MAX ? json_object_new_string("max") :
	       ms > UINT64_MAX / 1000 ? with_unit(ms, "ms") : time_us(ms * 1000);
}

/* per mille as damo's percent: 1 is "0.1 %", 500 "50 %" */
static struct json_object *permil(uint64_t v)
{
	char buf[48];

	if (v % 10)
		snprintf(buf, sizeof(buf), "%llu.%llu %%", (unsigned long long)(v / 10),
			 (unsigned long long)(v % 10));
	else
		snprintf(buf, sizeof(buf), "%llu %%", (unsigned long long)(v / 10));
	return json_object_new_string(buf);
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *minmax(struct json_object *a, struct json_object *b)
{
	struct json_object *o = json_object_new_object();

	add(o, "min", a);
	add(o, "max", b);
	return o;
}

/* samples as a percentage of the samples an aggregation interval has */
static struct json_object *access_rate(uint64_t v, uint64_t max_nr)
{
	char buf[64];
	u128 x = (u128)v * 100000;

	if (v >= UINT32_MAX)
		return json_object_new_string("18,446,744,073,709,551,615 %");
	if (!max_nr || x % max_nr)
		return count(v);	/* not a whole 1/1000 %: samples, as damo reads them */
	x /= max_nr;
	if (x % 1000)
		snprintf(buf, sizeof(buf), "%llu.%03llu %%", (unsigned long long)(x / 1000),
			 (unsigned long long)(x % 1000));
	else
		snprintf(buf, sizeof(buf), "%llu %%", (unsigned long long)(x / 1000));
	return json_object_new_string(buf);
}

static struct json_object *age(uint64_t v, uint64_t aggr_us)
{
	if (v >= UINT32_MAX)
		return json_object_new_string("max");
	return time_us(v * aggr_us);
}

static struct json_object *export_scheme(const struct damos_scheme *s,
					 const struct damon_attrs *a)
{
	struct damos_filter_info fi = { .sz = sizeof(fi) };
	struct damos_goal_info gi = { .sz = sizeof(gi) };
	struct json_object *o = json_object_new_object(), *p, *q, *w, *arr;
	uint64_t max_nr = a->sample_us ? a->aggr_us / a->sample_us : 0;
	uint64_t nid = damos_scheme_get(s, DAMOS_F_TARGET_NID);

#define F(f) damos_scheme_get(s, DAMOS_F_##f)
	add(o, "action", json_str(damos_scheme_action_name(s)));
	add(o, "dests", json_object_new_array());
	if (nid != DAMOS_NID_NONE)
		add(o, "target_nid", json_object_new_int64((int64_t)nid));
	p = json_object_new_object();
	add(p, "sz_bytes", minmax(bytes(F(MIN_SZ)), bytes(F(MAX_SZ))));
	add(p, "nr_accesses", minmax(access_rate(F(MIN_NR_ACCESSES), max_nr),
				     access_rate(F(MAX_NR_ACCESSES), max_nr)));
	add(p, "age", minmax(age(F(MIN_AGE), a->aggr_us), age(F(MAX_AGE), a->aggr_us)));
	add(o, "access_pattern", p);
	add(o, "apply_interval_us", time_us(F(APPLY_INTERVAL_US)));
	q = json_object_new_object();
	add(q, "time_ms", time_ms(F(QUOTA_MS)));
	add(q, "sz_bytes", bytes(F(QUOTA_SZ)));
	add(q, "reset_interval_ms", time_ms(F(QUOTA_RESET_MS)));
	add(q, "fail_charge_num", json_object_new_string("0"));
	add(q, "fail_charge_denom", json_object_new_string("0"));
	arr = json_object_new_array();
	for (size_t i = 0; !damos_scheme_goal(s, i, &gi); i++) {
		struct json_object *g = json_object_new_object();

		add(g, "metric", json_str(gi.metric_name));
		add(g, "nid", NULL);
		add(g, "memcg_path", NULL);
		add(g, "target_value", count(gi.target));
		add(g, "current_value", count(gi.current));
		json_object_array_add(arr, g);
	}
	add(q, "goals", arr);
	add(q, "goal_tuner", json_object_new_string("consist"));
	add(q, "effective_sz_bytes", bytes(F(EFFECTIVE_BYTES)));
	w = json_object_new_object();
	add(w, "sz_permil", permil(F(WEIGHT_SZ)));
	add(w, "nr_accesses_permil", permil(F(WEIGHT_NR_ACCESSES)));
	add(w, "age_permil", permil(F(WEIGHT_AGE)));
	add(q, "weights", w);
	add(o, "quotas", q);
	w = json_object_new_object();
	add(w, "metric", json_str(damos_metric_name(F(WMARKS_METRIC))));
	add(w, "interval_us", time_us(F(WMARKS_INTERVAL_US)));
	add(w, "high_permil", permil(F(WMARKS_HIGH)));
	add(w, "mid_permil", permil(F(WMARKS_MID)));
	add(w, "low_permil", permil(F(WMARKS_LOW)));
	add(o, "watermarks", w);
#undef F
	arr = json_object_new_array();
	for (size_t i = 0; !damos_scheme_filter(s, i, &fi); i++) {
		struct json_object *f = json_object_new_object(), *r = NULL;

		add(f, "filter_type", json_str(fi.type_name));
		add(f, "matching", json_object_new_boolean(fi.matching));
		add(f, "allow", json_object_new_boolean(false));
		add(f, "memcg_path", fi.type == DAMOS_FILTER_MEMCG ?
		    json_str(fi.memcg_path) : NULL);
		if (fi.type == DAMOS_FILTER_ADDR) {
			r = json_object_new_object();
			add(r, "start", count(fi.addr_start));
			add(r, "end", count(fi.addr_end));
		}
		add(f, "address_range", r);
		add(f, "damon_target_idx", fi.type == DAMOS_FILTER_TARGET ?
		    json_object_new_int(fi.target_idx) : NULL);
		add(f, "hugepage_size", NULL);
		json_object_array_add(arr, f);
	}
	add(o, "filters", arr);
	return o;
}

/* One context of the handle's kdamond as damo's JSON (*out). */
static int export_ctx(struct cli *c, struct damon_ctx *d, struct json_object **out)
{
	struct json_object *ctx, *x, *arr;
	struct damos_scheme **ss = NULL;
	struct damon_targets t = { .sz = sizeof(t) };
	struct damon_attrs a;
	size_t n = 0;
	int err;

	err = damon_attrs_read(d, &a);
	if (!err)
		err = damon_targets_read(d, &t);
	if (!err) {
		/* effective_sz_bytes: as the kernel has it now */
		cli_stats_update(c, d);
		err = damos_schemes_read(d, &ss, &n);
	}
	if (err) {
		damon_targets_free(&t);
		return cli_lib_error(c, err);
	}
	ctx = json_object_new_object();
	add(ctx, "ops", json_str(damon_ops_name(t.ops)));
	add(ctx, "addr_unit", json_object_new_string("1 B"));
	arr = json_object_new_array();
	for (size_t i = 0; i < t.nr; i++) {
		struct json_object *tg = json_object_new_object(), *rs;

		add(tg, "pid", t.ops == DAMON_OPS_VADDR ?
		    json_object_new_int(t.targets[i].pid) : NULL);
		add(tg, "obsolete", json_object_new_boolean(false));
		rs = json_object_new_array();
		for (size_t r = 0; t.ops != DAMON_OPS_VADDR && r < t.targets[i].nr_regions; r++) {
			struct json_object *reg = json_object_new_object();

			add(reg, "start", count(t.targets[i].regions[r].start));
			add(reg, "end", count(t.targets[i].regions[r].end));
			json_object_array_add(rs, reg);
		}
		add(tg, "regions", rs);
		json_object_array_add(arr, tg);
	}
	add(ctx, "targets", arr);
	x = json_object_new_object();
	add(x, "sample_us", time_us(a.sample_us));
	add(x, "aggr_us", time_us(a.aggr_us));
	add(x, "ops_update_us", time_us(a.update_us));
	{
		struct json_object *g = json_object_new_object();

		add(g, "access_bp", json_object_new_string("0 %"));
		add(g, "aggrs", json_object_new_string("0"));
		add(g, "min_sample_us", json_object_new_string("0 ns"));
		add(g, "max_sample_us", json_object_new_string("0 ns"));
		add(x, "intervals_goal", g);
	}
	add(ctx, "intervals", x);
	add(ctx, "nr_regions", minmax(count(a.min_nr_regions), count(a.max_nr_regions)));
	add(ctx, "probes", json_object_new_array());
	x = json_tokener_parse("{\"primitives_enabled\":{\"page_table\":true,\"page_fault\":false},\"sample_filters\":[]}");
	add(ctx, "sample_control", x);
	add(ctx, "pause", json_object_new_boolean(false));
	arr = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, export_scheme(ss[i], &a));
	add(ctx, "schemes", arr);
	damos_schemes_free(ss, n);
	damon_targets_free(&t);
	*out = ctx;
	return EXIT_OK;
}

/*
 * The kdamond --kdamond picks, or every kdamond of sysfs: with --kdamond
 * all, and without --kdamond where there are several (damo's spec is the
 * whole setup: it gives back what "apply" of a spec of several set).
 */
static int do_damo(struct cli *c, int argc, char **argv)
{
	struct json_object *root, *karr;
	struct damon_ctx *d;
	unsigned int first = (unsigned int)c->kdamond, nr = 1;
	int saved = c->kdamond, status = EXIT_OK, err;

	(void)argv;
	if (argc)
		return cli_error(c, EXIT_USAGE, "'%s': export damo takes no argument",
				 argv[0]);
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	if (c->kdamond_all || (!c->kdamond_given && damon_get_iface(d) == DAMON_IFACE_SYSFS)) {
		err = damon_kdamonds_count(d, &nr);
		if (err)
			return cli_close(c, d, cli_lib_error(c, err));
		if (c->kdamond_all && !nr)
			return cli_close(c, d, cli_error(c, EXIT_FAIL, "--kdamond all: there is no kdamond"));
		if (!c->kdamond_all && nr < 2)
			nr = 1;
		else
			first = 0;
	}
	karr = json_object_new_array();
	for (unsigned int i = 0; i < nr && !status; i++) {
		struct json_object *ctx = NULL, *k, *arr;
		struct damon_ctx *kd = d;

		if (first + i != (unsigned int)c->kdamond) {
			c->kdamond = (int)(first + i);
			kd = cli_open(c);
			c->kdamond = saved;
			if (!kd) {
				status = EXIT_FAIL;
				break;
			}
		}
		status = export_ctx(c, kd, &ctx);
		if (kd != d)
			damon_close(kd);
		if (status)
			break;
		k = json_object_new_object();
		add(k, "refresh_ms", json_object_new_int(0));
		arr = json_object_new_array();
		json_object_array_add(arr, ctx);
		add(k, "contexts", arr);
		json_object_array_add(karr, k);
	}
	if (status) {
		json_object_put(karr);
		return cli_close(c, d, status);
	}
	root = json_object_new_object();
	add(root, "kdamonds", karr);
	/* damo's own layout (4 spaces) without --json; one line with it */
	if (c->json) {
		json_print(c->out, root);
	} else {
		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE), c->out);
		fputc('\n', c->out);
		json_object_put(root);
	}
	return cli_close(c, d, EXIT_OK);
}

const struct cli_cmd export_cmds[] = {
	{ "damo", do_damo, "",
	  "print the setup (attrs, targets, schemes) as a damo kdamonds spec (JSON); every kdamond where there are several, or with --kdamond all",
	  NULL, CLI_ALL_KDAMONDS },
	{ NULL },
};
