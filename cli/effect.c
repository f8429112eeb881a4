// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report effect: did a scheme help?  Over one window, each scheme's bytes
 * tried and applied beside what the kernel counted in the same window:
 * the /proc/vmstat events that show each action's effect, the memory
 * they free or fill (/proc/meminfo, vmstat's nr_*_pages) and the memory
 * pressure stall (/proc/pressure/memory).
 *
 * DAMOS pageout reclaims through reclaim_pages(), which counts no
 * pgsteal_* event on 6.1 and 6.12: the memory it frees shows only in the
 * state counters, so those are always shown, whatever the actions.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define ACT(a) (1u << DAMOS_ACTION_##a)

/* the events that show an action's effect */
static const struct group {
	const char *what;
	unsigned int actions;
	const char *const *names;
} groups[] = {
	{ "reclaim", ACT(PAGEOUT) | ACT(LRU_DEPRIO),
	  (const char *const[]){ "pgsteal_kswapd", "pgsteal_direct",
		"pgsteal_khugepaged", "pgsteal_anon", "pgsteal_file", "pswpout",
		"workingset_refault_anon", "workingset_refault_file", NULL } },
	{ "LRU order", ACT(LRU_PRIO) | ACT(LRU_DEPRIO),
	  (const char *const[]){ "workingset_activate_anon",
		"workingset_activate_file", "pgactivate", "pgdeactivate", NULL } },
	{ "migration", ACT(MIGRATE_HOT) | ACT(MIGRATE_COLD),
	  (const char *const[]){ "pgmigrate_success", "pgmigrate_fail",
		"pgdemote_kswapd", "pgdemote_direct", "pgdemote_khugepaged",
		"pgpromote_success", NULL } },
	{ "faults", ACT(WILLNEED) | ACT(COLD),
	  (const char *const[]){ "pgmajfault", NULL } },
	{ "huge pages", ACT(HUGEPAGE) | ACT(NOHUGEPAGE),
	  (const char *const[]){ "thp_fault_alloc", "thp_collapse_alloc",
		"thp_split_page", NULL } },
};

/* the memory an action frees or fills: always shown */
static const struct mem_field {
	const char *name;
	bool meminfo;		/* kB in /proc/meminfo; else pages in vmstat */
} mem_fields[] = {
	{ "MemFree", true }, { "Cached", true }, { "AnonPages", true },
	{ "nr_file_pages", false }, { "nr_anon_pages", false },
};

struct kv {
	char name[64];
	long long v;
};

struct kvs {
	struct kv *a;
	size_t n;
	bool read;		/* the file was there */
};

/* what one reading of the kernel's files gave */
struct sample {
	uint64_t us;
	struct damos_scheme **s;
	size_t n;
	bool schemes_read;
	struct kvs vmstat, meminfo;
	bool psi;
	long long psi_some_us, psi_full_us;
	bool psi_full;
};

struct value {
	const char *name;
	bool have;		/* on this kernel, at both ends */
	long long before, after;
};

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static FILE *proc_open(struct cli *c, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/proc/%s", c->root ? c->root : "", file);
	return fopen(path, "re");
}

/* "NAME VALUE" (vmstat) or "NAME: VALUE kB" (meminfo) lines */
static int kvs_read(struct cli *c, const char *file, struct kvs *k)
{
	FILE *f = proc_open(c, file);
	char line[256];

	memset(k, 0, sizeof(*k));
	if (!f)
		return 0;
	k->read = true;
	while (fgets(line, sizeof(line), f)) {
		struct kv e = { "" }, *more;

		if (sscanf(line, "%63[^: ]%*[: ]%lld", e.name, &e.v) != 2)
			continue;
		more = realloc(k->a, (k->n + 1) * sizeof(*more));
		if (!more) {
			fclose(f);
			return -ENOMEM;
		}
		k->a = more;
		k->a[k->n++] = e;
	}
	fclose(f);
	return 0;
}

static const struct kv *kvs_find(const struct kvs *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->a[i].name, name))
			return &k->a[i];
	return NULL;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123" */
static void psi_read(struct cli *c, struct sample *s)
{
	FILE *f = proc_open(c, "pressure/memory");
	char line[256], kind[8];
	long long total;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *t = strstr(line, "total=");

		if (!t || sscanf(line, "%7s", kind) != 1 ||
		    sscanf(t, "total=%lld", &total) != 1)
			continue;
		if (!strcmp(kind, "some")) {
			s->psi = true;
			s->psi_some_us = total;
		} else if (!strcmp(kind, "full")) {
			s->psi_full = true;
			s->psi_full_us = total;
		}
	}
	fclose(f);
}

static int sample_take(struct cli *c, struct damon_ctx *d, struct sample *s)
{
	int err;

	cli_stats_update(c, d);
	s->us = mono_us();
	s->schemes_read = !damos_schemes_read(d, &s->s, &s->n);
	err = kvs_read(c, "vmstat", &s->vmstat);
	if (!err)
		err = kvs_read(c, "meminfo", &s->meminfo);
	psi_read(c, s);
	return err;
}

static void sample_free(struct sample *s)
{
	if (s->schemes_read)
		damos_schemes_free(s->s, s->n);
	free(s->vmstat.a);
	free(s->meminfo.a);
}

static struct value value_of(const struct sample *b, const struct sample *a,
			     const char *name, bool meminfo)
{
	const struct kv *x = kvs_find(meminfo ? &b->meminfo : &b->vmstat, name);
	const struct kv *y = kvs_find(meminfo ? &a->meminfo : &a->vmstat, name);
	struct value v = { .name = name, .have = x && y };

	if (v.have) {
		/* meminfo's kB as bytes */
		v.before = meminfo ? x->v * 1024 : x->v;
		v.after = meminfo ? y->v * 1024 : y->v;
	}
	return v;
}

/* a scheme over the window: the same action, counters that did not go back */
struct scheme_delta {
	const char *action;
	bool valid;
	uint64_t d[5];		/* nr_tried sz_tried nr_applied sz_applied qt_exceeds */
	uint64_t tried_bps, applied_bps;
};

static void scheme_deltas(const struct sample *b, const struct sample *a,
			  uint64_t window_us, struct scheme_delta *out)
{
	for (size_t i = 0; i < a->n; i++) {
		struct scheme_delta *r = &out[i];

		r->action = damos_scheme_action_name(a->s[i]);
		r->valid = b->schemes_read && i < b->n &&
			   !strcmp(damos_scheme_action_name(b->s[i]), r->action);
		for (int f = 0; r->valid && f < 5; f++) {
			uint64_t x = damos_scheme_get(b->s[i], DAMOS_F_NR_TRIED + f);
			uint64_t y = damos_scheme_get(a->s[i], DAMOS_F_NR_TRIED + f);

			r->valid = y >= x;
			r->d[f] = y - x;
		}
		if (r->valid && window_us) {
			r->tried_bps = (uint64_t)((unsigned __int128)r->d[1] * 1000000 / window_us);
			r->applied_bps = (uint64_t)((unsigned __int128)r->d[3] * 1000000 / window_us);
		}
	}
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* the window: Ctrl-C ends it early, and what it saw is shown */
static void wait_window(uint64_t t0, uint64_t us)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;

	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	while (!interrupted && mono_us() - t0 < us) {
		uint64_t left = us - (mono_us() - t0);

		usleep(left > 100000 ? 100000 : left);
	}
	sigaction(SIGINT, &old, NULL);
}

/* 1536 -> "1.5K", with a sign where asked */
static char *size_str(long long b, bool sign, char *buf, size_t sz)
{
	static const char units[] = "BKMGTPE";
	double v = b < 0 ? -(double)b : (double)b;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, sz, u ? "%s%.1f%c" : "%s%.0f%c",
		 b < 0 ? "-" : sign ? "+" : "", v, units[u]);
	return buf;
}

struct effect {
	uint64_t window_us;
	bool running;
	struct sample b, a;
	struct scheme_delta *sd;
	unsigned int actions;		/* of the schemes at the end */
	long page_size;
};

static bool group_shown(const struct effect *e, const struct group *g)
{
	return e->actions & g->actions;
}

static void group_actions(const struct group *g, char *buf, size_t sz)
{
	size_t n = 0;

	*buf = '\0';
	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		if (g->actions & (1u << a))
			n += snprintf(buf + n, sz - n, "%s%s", n ? ", " : "",
				      damos_action_name(a));
}

static void print_text(struct cli *c, const struct effect *e)
{
	char s1[32], s2[32], s3[32], s4[32], list[1024];
	size_t nrose = 0, nfell = 0, nmissing = 0;
	char rose[2048] = "", fell[1024] = "", missing[1024] = "";

	fprintf(c->out, "report effect over %.1fs%s\n", e->window_us / 1e6,
		e->running ? "" : " (the kdamond is off: its schemes do nothing)");
	fprintf(c->out, "%-3s %-12s %10s %10s %10s %10s\n", "#", "action",
		"tried", "applied", "tried/s", "applied/s");
	for (size_t i = 0; i < e->a.n; i++) {
		const struct scheme_delta *r = &e->sd[i];

		if (!r->valid) {
			fprintf(c->out, "%-3zu %-12s changed during the window (added, replaced or restarted)\n",
				i, r->action);
			continue;
		}
		fprintf(c->out, "%-3zu %-12s %10s %10s %10s %10s\n", i, r->action,
			size_str(r->d[1], false, s1, sizeof(s1)),
			size_str(r->d[3], false, s2, sizeof(s2)),
			size_str(r->tried_bps, false, s3, sizeof(s3)),
			size_str(r->applied_bps, false, s4, sizeof(s4)));
	}
	if (!e->a.schemes_read)
		fprintf(c->out, "(the schemes could not be read)\n");
	else if (!e->a.n)
		fprintf(c->out, "(no schemes)\n");
	fprintf(c->out, "\n%-19s %12s %12s %12s\n", "memory", "before", "after", "change");
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++) {
		const struct mem_field *m = &mem_fields[i];
		struct value v = value_of(&e->b, &e->a, m->name, m->meminfo);
		long long unit = m->meminfo ? 1 : e->page_size;
		size_t *cnt;
		char *to;

		if (!v.have) {
			fprintf(c->out, "  %-17s missing on this kernel\n", m->name);
			nmissing++;
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
				 "%s%s", nmissing > 1 ? ", " : "", m->name);
			continue;
		}
		fprintf(c->out, "  %-17s %12s %12s %12s%s\n", m->name,
			size_str(v.before * unit, false, s1, sizeof(s1)),
			size_str(v.after * unit, false, s2, sizeof(s2)),
			size_str((v.after - v.before) * unit, true, s3, sizeof(s3)),
			m->meminfo ? "" : " (pages x page size)");
		if (v.after == v.before)
			continue;
		cnt = v.after > v.before ? &nrose : &nfell;
		to = v.after > v.before ? rose : fell;
		(*cnt)++;
		snprintf(to + strlen(to), (to == rose ? sizeof(rose) : sizeof(fell)) - strlen(to),
			 "%s%s by %s", *cnt > 1 ? ", " : "", m->name,
			 size_str(llabs(v.after - v.before) * unit, false, s1, sizeof(s1)));
	}
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		if (!group_shown(e, &groups[g]))
			continue;
		group_actions(&groups[g], list, sizeof(list));
		fprintf(c->out, "\n%s events (/proc/vmstat), for %s:\n",
			groups[g].what, list);
		if (groups[g].actions & ACT(PAGEOUT))
			fprintf(c->out, "  (DAMOS pageout reclaims by reclaim_pages(), which counts no pgsteal_*\n"
				"  on 6.1 and 6.12: what it frees shows in memory above)\n");
		for (const char *const *n = groups[g].names; *n; n++) {
			struct value v = value_of(&e->b, &e->a, *n, false);

			if (!v.have) {
				fprintf(c->out, "  %-26s missing on this kernel\n", *n);
				if (!strstr(missing, *n)) {
					nmissing++;
					snprintf(missing + strlen(missing),
						 sizeof(missing) - strlen(missing), "%s%s",
						 nmissing > 1 ? ", " : "", *n);
				}
				continue;
			}
			fprintf(c->out, "  %-26s %+lld\n", *n, v.after - v.before);
			if (v.after > v.before && !strstr(rose, *n)) {
				nrose++;
				snprintf(rose + strlen(rose), sizeof(rose) - strlen(rose),
					 "%s%s by %lld", nrose > 1 ? ", " : "", *n,
					 v.after - v.before);
			}
		}
	}
	if (e->b.psi && e->a.psi) {
		long long some = e->a.psi_some_us - e->b.psi_some_us;
		long long full = e->a.psi_full_us - e->b.psi_full_us;

		fprintf(c->out, "\nmemory pressure (/proc/pressure/memory): some %s stalled (%.2f%% of the window)",
			damos_format_time_us(some > 0 ? some : 0, s1, sizeof(s1)),
			e->window_us ? 100.0 * some / e->window_us : 0);
		if (e->b.psi_full && e->a.psi_full)
			fprintf(c->out, ", full %s (%.2f%%)",
				damos_format_time_us(full > 0 ? full : 0, s2, sizeof(s2)),
				e->window_us ? 100.0 * full / e->window_us : 0);
		fputc('\n', c->out);
		if (some > 0) {
			nrose++;
			snprintf(rose + strlen(rose), sizeof(rose) - strlen(rose),
				 "%smemory pressure (some) by %s", nrose > 1 ? ", " : "", s1);
		}
	} else {
		fprintf(c->out, "\nmemory pressure: missing on this kernel (no /proc/pressure/memory: CONFIG_PSI off or psi=0)\n");
		nmissing++;
		snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
			 "%s/proc/pressure/memory", nmissing > 1 ? ", " : "");
	}
	fprintf(c->out, "\nrose: %s\nfell: %s\n", nrose ? rose : "nothing",
		nfell ? fell : "nothing");
	if (nmissing)
		fprintf(c->out, "missing on this kernel: %s\n", missing);
}

static struct json_object *json_i64(long long v)
{
	return json_object_new_int64(v);
}

static struct json_object *json_value(const struct value *v, long long unit,
				      const char *unit_name)
{
	struct json_object *o;

	if (!v->have)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "before", json_i64(v->before));
	json_object_object_add(o, "after", json_i64(v->after));
	json_object_object_add(o, "change", json_i64(v->after - v->before));
	json_object_object_add(o, "unit", json_str(unit_name));
	if (unit != 1)
		json_object_object_add(o, "change_bytes",
				       json_i64((v->after - v->before) * unit));
	return o;
}

static void print_json(struct cli *c, const struct effect *e)
{
	struct json_object *o = json_object_new_object(), *arr, *mem, *ev, *rose,
			   *fell, *missing, *p;

	json_object_object_add(o, "window_us", json_u64(e->window_us));
	json_object_object_add(o, "running", json_object_new_boolean(e->running));
	arr = json_object_new_array();
	for (size_t i = 0; i < e->a.n; i++) {
		const struct scheme_delta *r = &e->sd[i];
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "index", json_u64(i));
		json_object_object_add(s, "action", json_str(r->action));
		json_object_object_add(s, "changed", json_object_new_boolean(!r->valid));
		if (r->valid) {
			for (int f = 0; f < 5; f++)
				json_object_object_add(s, damos_field_name(DAMOS_F_NR_TRIED + f),
						       json_u64(r->d[f]));
			json_object_object_add(s, "tried_bytes_per_second",
					       json_u64(r->tried_bps));
			json_object_object_add(s, "applied_bytes_per_second",
					       json_u64(r->applied_bps));
		}
		json_object_array_add(arr, s);
	}
	json_object_object_add(o, "schemes", arr);
	rose = json_object_new_array();
	fell = json_object_new_array();
	missing = json_object_new_array();
	mem = json_object_new_object();
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++) {
		const struct mem_field *m = &mem_fields[i];
		struct value v = value_of(&e->b, &e->a, m->name, m->meminfo);

		json_object_object_add(mem, m->name,
				       json_value(&v, m->meminfo ? 1 : e->page_size,
						  m->meminfo ? "bytes" : "pages"));
		if (!v.have)
			json_object_array_add(missing, json_str(m->name));
		else if (v.after != v.before)
			json_object_array_add(v.after > v.before ? rose : fell,
					      json_str(m->name));
	}
	json_object_object_add(o, "memory", mem);
	ev = json_object_new_object();
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		if (!group_shown(e, &groups[g]))
			continue;
		for (const char *const *n = groups[g].names; *n; n++) {
			struct value v = value_of(&e->b, &e->a, *n, false);

			if (json_object_object_get_ex(ev, *n, NULL))
				continue;
			json_object_object_add(ev, *n, json_value(&v, 1, "events"));
			if (!v.have)
				json_object_array_add(missing, json_str(*n));
			else if (v.after > v.before)
				json_object_array_add(rose, json_str(*n));
		}
	}
	json_object_object_add(o, "events", ev);
	if (e->b.psi && e->a.psi) {
		p = json_object_new_object();
		json_object_object_add(p, "some_stall_us",
				       json_i64(e->a.psi_some_us - e->b.psi_some_us));
		if (e->b.psi_full && e->a.psi_full)
			json_object_object_add(p, "full_stall_us",
					       json_i64(e->a.psi_full_us - e->b.psi_full_us));
		if (e->a.psi_some_us > e->b.psi_some_us)
			json_object_array_add(rose, json_str("pressure_some"));
	} else {
		p = NULL;
		json_object_array_add(missing, json_str("pressure"));
	}
	json_object_object_add(o, "pressure", p);
	json_object_object_add(o, "rose", rose);
	json_object_object_add(o, "fell", fell);
	json_object_object_add(o, "missing", missing);
	json_print(c->out, o);
}

/* the same numbers as gauges: each is the window's, not a running total */
static void print_metrics(struct cli *c, struct damon_ctx *d,
			  const struct effect *e, const struct cli_metrics *m,
			  FILE *f)
{
	char kd[32], ctx[32] = "0";
	static const struct {
		const char *name, *help;
		int field;		/* index into d[], or -1/-2 the rates */
	} sf[] = {
		{ "damon_effect_scheme_tried_bytes", "Bytes the scheme's action was tried on in the window.", 1 },
		{ "damon_effect_scheme_applied_bytes", "Bytes the scheme's action was applied to in the window.", 3 },
		{ "damon_effect_scheme_tried_bytes_per_second", "Bytes tried a second over the window.", -1 },
		{ "damon_effect_scheme_applied_bytes_per_second", "Bytes applied a second over the window.", -2 },
	};

	snprintf(kd, sizeof(kd), "%d", c->kdamond);
	if (damon_get_iface(d) == DAMON_IFACE_DBGFS) {
		snprintf(kd, sizeof(kd), "dbgfs");
		snprintf(ctx, sizeof(ctx), "%s", c->dbgfs_ctx ? c->dbgfs_ctx : "0");
	}
	cli_metrics_family(f, m, "damon_effect_window_seconds", "gauge",
			   "The window the other damon_effect_ values are of.");
	fprintf(f, "damon_effect_window_seconds %llu.%06llu\n",
		(unsigned long long)(e->window_us / 1000000),
		(unsigned long long)(e->window_us % 1000000));
	for (size_t k = 0; k < ARRAY_SIZE(sf) && e->a.n; k++) {
		cli_metrics_family(f, m, sf[k].name, "gauge", sf[k].help);
		for (size_t i = 0; i < e->a.n; i++) {
			const struct scheme_delta *r = &e->sd[i];

			if (!r->valid)
				continue;
			fprintf(f, "%s{kdamond=\"", sf[k].name);
			cli_metrics_label(f, kd);
			fputs("\",context=\"", f);
			cli_metrics_label(f, ctx);
			fprintf(f, "\",scheme=\"%zu\",action=\"", i);
			cli_metrics_label(f, r->action);
			fprintf(f, "\"} %llu\n", (unsigned long long)
				(sf[k].field >= 0 ? r->d[sf[k].field] :
				 sf[k].field == -1 ? r->tried_bps : r->applied_bps));
		}
	}
	cli_metrics_family(f, m, "damon_effect_memory_change_bytes", "gauge",
			   "The change of a memory counter over the window (vmstat's nr_*_pages as bytes).");
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++) {
		struct value v = value_of(&e->b, &e->a, mem_fields[i].name,
					  mem_fields[i].meminfo);

		if (v.have)
			fprintf(f, "damon_effect_memory_change_bytes{counter=\"%s\"} %lld\n",
				v.name, (v.after - v.before) *
				(mem_fields[i].meminfo ? 1 : e->page_size));
	}
	cli_metrics_family(f, m, "damon_effect_vmstat_change", "gauge",
			   "The change of a /proc/vmstat event counter over the window.");
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++)
		for (const char *const *n = groups[g].names; group_shown(e, &groups[g]) && *n; n++) {
			struct value v = value_of(&e->b, &e->a, *n, false);
			bool dup = false;

			for (size_t h = 0; h < g; h++)
				for (const char *const *x = groups[h].names;
				     group_shown(e, &groups[h]) && *x; x++)
					dup |= !strcmp(*x, *n);
			if (v.have && !dup)
				fprintf(f, "damon_effect_vmstat_change{counter=\"%s\"} %lld\n",
					*n, v.after - v.before);
		}
	cli_metrics_family(f, m, "damon_effect_counter_present", "gauge",
			   "Whether the running kernel has the counter (0: missing, not zero).");
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++)
		fprintf(f, "damon_effect_counter_present{counter=\"%s\"} %d\n",
			mem_fields[i].name,
			value_of(&e->b, &e->a, mem_fields[i].name, mem_fields[i].meminfo).have);
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++)
		for (const char *const *n = groups[g].names; group_shown(e, &groups[g]) && *n; n++) {
			bool dup = false;

			for (size_t h = 0; h < g; h++)
				for (const char *const *x = groups[h].names;
				     group_shown(e, &groups[h]) && *x; x++)
					dup |= !strcmp(*x, *n);
			if (!dup)
				fprintf(f, "damon_effect_counter_present{counter=\"%s\"} %d\n",
					*n, value_of(&e->b, &e->a, *n, false).have);
		}
	fprintf(f, "damon_effect_counter_present{counter=\"pressure_memory\"} %d\n",
		e->b.psi && e->a.psi);
	if (e->b.psi && e->a.psi) {
		cli_metrics_family(f, m, "damon_effect_pressure_stall_seconds", "gauge",
				   "Time tasks stalled on memory in the window (/proc/pressure/memory).");
		fprintf(f, "damon_effect_pressure_stall_seconds{kind=\"some\"} %.6f\n",
			(e->a.psi_some_us - e->b.psi_some_us) / 1e6);
		if (e->b.psi_full && e->a.psi_full)
			fprintf(f, "damon_effect_pressure_stall_seconds{kind=\"full\"} %.6f\n",
				(e->a.psi_full_us - e->b.psi_full_us) / 1e6);
	}
	if (m->format == CLI_FORMAT_OPENMETRICS)
		fputs("# EOF\n", f);
}

int report_effect(struct cli *c, int argc, char **argv)
{
	struct effect e = { 0 };
	uint64_t duration = 10000000;
	struct cli_metrics m;
	char **rest = calloc(argc + 1, sizeof(*rest));
	char *text = NULL;
	size_t len = 0;
	struct damon_ctx *d;
	int nrest = 0, status = EXIT_OK, err;
	FILE *f;

	if (!rest)
		return cli_error(c, EXIT_FAIL, "out of memory");
	for (int i = 0; i < argc; i++) {
		bool opt = !strcmp(argv[i], "--format") || !strcmp(argv[i], "--output");

		if (!opt && strcmp(argv[i], "duration")) {
			free(rest);
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected duration, --format or --output)",
					 argv[i]);
		}
		if (i + 1 >= argc) {
			free(rest);
			return cli_error(c, EXIT_USAGE, "%s: expected a value", argv[i]);
		}
		if (opt) {
			rest[nrest++] = argv[i++];
			rest[nrest++] = argv[i];
			continue;
		}
		if (damos_parse_time_us(argv[++i], 1000000, &duration) || !duration) {
			free(rest);
			return cli_error(c, EXIT_USAGE,
					 "duration: '%s' is not a time above 0 (units: us ms s m h; bare: s)",
					 argv[i]);
		}
	}
	status = cli_metrics_args(c, &nrest, rest, &m);
	free(rest);
	if (status)
		return status;
	d = cli_open(c);
	if (!d)
		return EXIT_FAIL;
	e.page_size = sysconf(_SC_PAGESIZE);
	damon_monitor_status(d, &e.running, NULL);
	err = sample_take(c, d, &e.b);
	if (!err) {
		/* no writer waits for the window; each sample is read locked */
		cli_lock_pause(c);
		wait_window(e.b.us, duration);
		if (cli_lock_resume(c)) {
			damon_close(d);
			return EXIT_FAIL;
		}
		err = sample_take(c, d, &e.a);
	}
	if (!err && !e.a.schemes_read)
		err = -EIO;
	if (!err) {
		e.window_us = e.a.us - e.b.us;
		e.sd = calloc(e.a.n + 1, sizeof(*e.sd));
		if (!e.sd)
			err = -ENOMEM;
	}
	if (err) {
		sample_free(&e.b);
		sample_free(&e.a);
		return cli_close(c, d, err == -ENOMEM ?
				 cli_error(c, EXIT_FAIL, "out of memory") :
				 cli_error(c, EXIT_FAIL, "the schemes could not be read: %s",
					   cli_errmsg()));
	}
	scheme_deltas(&e.b, &e.a, e.window_us, e.sd);
	for (size_t i = 0; i < e.a.n; i++) {
		int a = damos_scheme_get(e.a.s[i], DAMOS_F_ACTION);

		if (a >= 0 && a < DAMOS_NR_ACTIONS)
			e.actions |= 1u << a;
	}
	if (m.format != CLI_FORMAT_TEXT) {
		f = m.output ? open_memstream(&text, &len) : c->out;
		if (!f) {
			status = cli_error(c, EXIT_FAIL, "out of memory");
		} else {
			print_metrics(c, d, &e, &m, f);
			if (m.output) {
				fclose(f);
				status = cli_metrics_write(c, m.output, text, len);
				free(text);
			}
		}
	} else if (c->json) {
		print_json(c, &e);
	} else {
		print_text(c, &e);
	}
	free(e.sd);
	sample_free(&e.b);
	sample_free(&e.a);
	return cli_close(c, d, status);
}

const struct cli_grammar report_effect_grammar = {
	.kws = (const struct kw_spec[]){
		{ "duration", 1, .args = "TIME",
		  .help = "the window (bare: s; default 10s); Ctrl-C ends it early" },
		{ "--format", 1, (const char *const[]){ "text", "openmetrics", "prometheus", NULL },
		  .args = "text|openmetrics|prometheus",
		  .help = "the window's numbers as gauges, as stats show writes its counters" },
		{ "--output", 1, .args = "FILE",
		  .help = "with --format: replace FILE whole (for node_exporter's textfile collector)" },
		{ NULL },
	},
};
