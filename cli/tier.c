// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl tier conf|enable|disable|status|run: memory tiering with DAMOS
 * migrate_cold and migrate_hot (Linux 6.11+) between a fast node (one with
 * CPUs) and a slow one (memory without CPUs: a CXL expander, say).
 *
 * The setup is damo's mem_tier.sh (damo v3.3.0) as two sysfs kdamonds,
 * applied as one damoctl.conf(5) text of kdamond sections (one transaction,
 * cli_apply_text()):
 *   kdamond 0  the fast node's memory: cold pages go to the slow node,
 *              at most QUOTA a second, the quota tuned by a goal: the fast
 *              node's free memory (basis points) reaching FREE;
 *   kdamond 1  the slow node's memory: hot pages come back to the fast
 *              node, at most QUOTA a second, tuned by a goal: the fast
 *              node's used memory reaching USED.
 * The quota is QUOTA/10 a 100 ms window (mem_tier.sh: QUOTA a 1 s one):
 * the kernel tunes a goal's quota once a window, from 1 byte up, by the
 * share the goal is missed by; at 1 s windows a cold scheme whose goal is
 * missed by 13% took minutes to reach 100 MB/s in the guest (6 bytes after
 * 25 s), at 100 ms windows it takes seconds.
 * mem_tier.sh's goals are node_mem_free_bp and node_mem_used_bp, which
 * came in Linux 6.16; the kernels Debian ships (6.12) have user_input
 * goals only, so damoctl computes the same values from the node's meminfo
 * and feeds them: at "tier enable", then every second while "tier run"
 * runs (damoctl-tier.service).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define NODE_DIR "sys/devices/system/node"
#define MAX_NODES 64
/* tier run writes a goal's value when it moved by this much (0.1%) */
#define FEED_STEP_BP 10

struct tier_opts {
	int fast, slow;			/* -1: found from the nodes */
	uint64_t quota;			/* bytes a second */
	uint64_t free_bp, used_bp;	/* the goals' targets */
	uint64_t cold_us;		/* the age of a cold region */
	unsigned int hot_pct;		/* the access rate of a hot region */
};

static FILE *sys_open(struct cli *c, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", c->root ? c->root : "", rel);
	return fopen(path, "re");
}

/* The first line of @rel, without its newline; -errno if unreadable. */
static int sys_line(struct cli *c, const char *rel, char *buf, size_t sz)
{
	FILE *f = sys_open(c, rel);
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)sz, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (ferror(f))
		err = -EIO;
	fclose(f);
	return err;
}

/* MemTotal and MemFree of node @n, in bytes. */
static int node_mem(struct cli *c, int n, uint64_t *total, uint64_t *free_b)
{
	char rel[128], line[256], key[64];
	unsigned long long kb;
	int node, got = 0;
	FILE *f;

	snprintf(rel, sizeof(rel), NODE_DIR "/node%d/meminfo", n);
	f = sys_open(c, rel);
	if (!f)
		return cli_error(c, EXIT_FAIL, "node %d: %s/%s: %s", n,
				 c->root ? c->root : "", rel, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d %63[^:]: %llu kB", &node, key, &kb) != 3)
			continue;
		if (!strcmp(key, "MemTotal")) {
			*total = kb * 1024;
			got |= 1;
		} else if (!strcmp(key, "MemFree")) {
			*free_b = kb * 1024;
			got |= 2;
		}
	}
	fclose(f);
	if (got != 3 || !*total)
		return cli_error(c, EXIT_FAIL, "node %d: %s has no MemTotal and MemFree", n, rel);
	return EXIT_OK;
}

struct node {
	int id;
	bool cpus;		/* cpulist is not empty */
	uint64_t total;		/* MemTotal, bytes */
};

/* The nodes with memory, in order of their number. */
static int nodes_read(struct cli *c, struct node *out, int *nr)
{
	char path[4096];
	struct dirent *e;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "%s/" NODE_DIR, c->root ? c->root : "");
	dir = opendir(path);
	if (!dir)
		return cli_error(c, EXIT_FAIL, "%s: %s (a kernel without NUMA has no nodes to tier)",
				 path, strerror(errno));
	while ((e = readdir(dir)) && n < MAX_NODES) {
		char rel[128], line[256];
		uint64_t total = 0, fr = 0;
		char *end;
		long id;

		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (*end || id < 0 || id > 4096)
			continue;
		snprintf(rel, sizeof(rel), NODE_DIR "/node%ld/cpulist", id);
		if (sys_line(c, rel, line, sizeof(line)))
			line[0] = '\0';
		if (node_mem(c, (int)id, &total, &fr)) {
			closedir(dir);
			return EXIT_FAIL;
		}
		out[n++] = (struct node){ (int)id, line[0] != '\0', total };
	}
	closedir(dir);
	/* readdir's order is the directory's */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j - 1].id > out[j].id; j--) {
			struct node t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	*nr = n;
	return EXIT_OK;
}

/* Pick the fast and the slow node where the options leave them open. */
static int nodes_pick(struct cli *c, struct tier_opts *o)
{
	struct node nodes[MAX_NODES];
	int nr = 0, status = nodes_read(c, nodes, &nr);
	bool fast_ok = false, slow_ok = false;

	if (status)
		return status;
	for (int i = 0; i < nr; i++) {
		if (o->fast < 0 && nodes[i].cpus && nodes[i].total)
			o->fast = nodes[i].id;
		if (o->slow < 0 && !nodes[i].cpus && nodes[i].total)
			o->slow = nodes[i].id;
	}
	for (int i = 0; i < nr; i++) {
		fast_ok |= nodes[i].id == o->fast && nodes[i].total;
		slow_ok |= nodes[i].id == o->slow && nodes[i].total;
	}
	if (o->slow < 0)
		return cli_error(c, EXIT_FAIL,
				 "no node of memory without CPUs (%d node%s): nothing to tier to; name the nodes with fast N slow M",
				 nr, nr == 1 ? "" : "s");
	if (!fast_ok || !slow_ok)
		return cli_error(c, EXIT_FAIL, "node %d: no such node with memory (see %s)",
				 fast_ok ? o->slow : o->fast, "/" NODE_DIR);
	if (o->fast == o->slow)
		return cli_error(c, EXIT_USAGE, "fast %d slow %d: two nodes, not one", o->fast, o->slow);
	return EXIT_OK;
}

/* The goals' current values: the fast node's free and used memory, in bp. */
static int goal_values(struct cli *c, int fast, uint64_t *free_bp, uint64_t *used_bp)
{
	uint64_t total = 0, fr = 0;
	int status = node_mem(c, fast, &total, &fr);

	if (status)
		return status;
	*free_bp = fr >= total ? 10000 : fr * 10000 / total;
	*used_bp = 10000 - *free_bp;
	return EXIT_OK;
}

static int parse_pct_bp(struct cli *c, const char *kw, const char *s, uint64_t *bp)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || strcmp(end, "%") || v < 0 || v > 100 ||
	    v * 100 != (double)(uint64_t)(v * 100 + 0.5))
		return cli_error(c, EXIT_USAGE, "%s: '%s' is not a percentage of 0%% to 100%% in steps of 0.01%%",
				 kw, s);
	*bp = (uint64_t)(v * 100 + 0.5);
	return EXIT_OK;
}

static int parse_node(struct cli *c, const char *kw, const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 4096 || !isdigit((unsigned char)*s))
		return cli_error(c, EXIT_USAGE, "%s: '%s' is not a node number", kw, s);
	*out = (int)v;
	return EXIT_OK;
}

static int tier_args(struct cli *c, int argc, char **argv, struct tier_opts *o)
{
	*o = (struct tier_opts){ .fast = -1, .slow = -1, .quota = 200ULL << 20,
				 .free_bp = 50, .used_bp = 9970, .cold_us = 5000000,
				 .hot_pct = 5 };
	for (int i = 0; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int status = EXIT_OK;

		if (!v)
			return cli_error(c, EXIT_USAGE, "%s: expected a value after it", k);
		if (!strcmp(k, "fast"))
			status = parse_node(c, k, v, &o->fast);
		else if (!strcmp(k, "slow"))
			status = parse_node(c, k, v, &o->slow);
		else if (!strcmp(k, "quota")) {
			if (damos_parse_size(v, &o->quota) || !o->quota)
				status = cli_error(c, EXIT_USAGE, "quota: '%s' is not a size above 0 (bytes a second: B K M G T)", v);
		} else if (!strcmp(k, "free"))
			status = parse_pct_bp(c, k, v, &o->free_bp);
		else if (!strcmp(k, "used"))
			status = parse_pct_bp(c, k, v, &o->used_bp);
		else if (!strcmp(k, "cold")) {
			if (damos_parse_time_us(v, 1000000, &o->cold_us))
				status = cli_error(c, EXIT_USAGE, "cold: '%s' is not a time (us ms s m h)", v);
		} else if (!strcmp(k, "hot")) {
			uint64_t bp;

			status = parse_pct_bp(c, k, v, &bp);
			if (!status && (bp % 100 || !bp))
				status = cli_error(c, EXIT_USAGE, "hot: '%s': a whole percentage above 0%%", v);
			o->hot_pct = (unsigned int)(bp / 100);
		} else
			status = cli_error(c, EXIT_USAGE,
					   "unknown keyword '%s' (fast N, slow N, quota SIZE, free PCT, used PCT, cold TIME, hot PCT)", k);
		if (status)
			return status;
	}
	return nodes_pick(c, o);
}

/* "region S E ..." of node @nid's System RAM, malloc()ed. */
static char *node_regions(struct cli *c, int nid)
{
	struct damon_region *r = NULL;
	size_t n = 0, len = 0;
	char *t = NULL;
	FILE *f;
	int err = damos_node_ram(c->root, nid, &r, &n);

	if (err) {
		cli_lib_error(c, err);
		return NULL;
	}
	f = open_memstream(&t, &len);
	for (size_t i = 0; f && i < n; i++)
		fprintf(f, "%sregion 0x%llx 0x%llx", i ? " " : "",
			(unsigned long long)r[i].start, (unsigned long long)r[i].end);
	if (!f || fclose(f)) {
		free(t);
		t = NULL;
		cli_error(c, EXIT_FAIL, "out of memory");
	}
	free(r);
	return t;
}

/* The damoctl.conf text of the setup, malloc()ed. */
static char *tier_text(struct cli *c, const struct tier_opts *o)
{
	uint64_t free_now = 0, used_now = 0;
	char *t = NULL, *fast_r = NULL, *slow_r = NULL;

	if (goal_values(c, o->fast, &free_now, &used_now) ||
	    !(fast_r = node_regions(c, o->fast)) || !(slow_r = node_regions(c, o->slow))) {
		free(fast_r);
		return NULL;
	}
	if (asprintf(&t,
		     "# damoctl tier: node %d fast, node %d slow (damo's mem_tier.sh)\n"
		     "kdamond 0\n"
		     "target paddr %s\n"
		     "scheme migrate_cold access 0 0 age %lluus max nid %d quota size %llu reset 100 filter young goal user_input %llu %llu\n"
		     "monitor on\n"
		     "kdamond 1\n"
		     "target paddr %s\n"
		     "scheme migrate_hot access %u%% max nid %d quota size %llu reset 100 goal user_input %llu %llu\n"
		     "monitor on\n",
		     o->fast, o->slow,
		     fast_r, (unsigned long long)o->cold_us, o->slow,
		     (unsigned long long)(o->quota / 10), (unsigned long long)o->free_bp,
		     (unsigned long long)free_now,
		     slow_r, o->hot_pct, o->fast, (unsigned long long)(o->quota / 10),
		     (unsigned long long)o->used_bp, (unsigned long long)used_now) < 0) {
		cli_error(c, EXIT_FAIL, "out of memory");
		t = NULL;
	}
	free(fast_r);
	free(slow_r);
	return t;
}

/* The options, then the text: NULL with the status in *@status. */
static char *tier_conf(struct cli *c, int argc, char **argv, struct tier_opts *o,
		       int *status)
{
	char *t;

	*status = tier_args(c, argc, argv, o);
	if (*status)
		return NULL;
	t = tier_text(c, o);
	if (!t)
		*status = EXIT_FAIL;
	return t;
}

static int do_conf(struct cli *c, int argc, char **argv)
{
	struct tier_opts o;
	int status;
	char *t = tier_conf(c, argc, argv, &o, &status);

	if (t)
		fputs(t, c->out);
	free(t);
	return status;
}

static int do_enable(struct cli *c, int argc, char **argv)
{
	struct tier_opts o;
	int status;
	char *t = tier_conf(c, argc, argv, &o, &status);

	if (!t)
		return status;
	status = cli_apply_text(c, "tier", t, strlen(t), false);
	if (!status)
		cli_note(c, "node %d -> node %d cold, node %d -> node %d hot; the goals need 'damoctl tier run' (damoctl-tier.service) to follow the memory",
			 o.fast, o.slow, o.slow, o.fast);
	return status;
}

/*
 * Whether kdamond @k's schemes @s are the tier's: kdamond 0's first a
 * migrate_cold, kdamond 1's a migrate_hot, each with a user_input goal
 * first; its target node in @nid.  EXIT_FAIL with a message if not.
 */
static int tier_schemes(struct cli *c, int k, struct damos_scheme *const *s,
			size_t n, int *nid)
{
	static const enum damos_action want[2] = { DAMOS_ACTION_MIGRATE_COLD,
						   DAMOS_ACTION_MIGRATE_HOT };
	struct damos_goal_info g = { .sz = sizeof(g) };

	if (!n || damos_scheme_action(s[0]) != want[k] ||
	    damos_scheme_goal(s[0], 0, &g) || g.metric != DAMOS_GOAL_USER_INPUT)
		return cli_error(c, EXIT_FAIL, "kdamond %d is not damoctl tier's (its first scheme is no %s with a user_input goal): see damoctl tier enable",
				 k, damos_action_name(want[k]));
	*nid = (int)damos_scheme_get(s[0], DAMOS_F_TARGET_NID);
	return EXIT_OK;
}

/*
 * The tier setup (tier_schemes()) in kdamonds 0 and 1: @d[2] opened
 * (closed by the caller), @nid[2] their target nodes.
 */
static int tier_find(struct cli *c, struct damon_ctx *d[2], int nid[2], bool on[2])
{
	int saved = c->kdamond, status = EXIT_OK;
	enum damon_iface saved_iface = c->iface;

	d[0] = d[1] = NULL;
	for (int k = 0; k < 2 && !status; k++) {
		struct damos_scheme **s = NULL;
		size_t n = 0;
		int err;

		c->kdamond = k;
		c->iface = DAMON_IFACE_SYSFS;
		d[k] = cli_open(c);
		if (!d[k]) {
			status = EXIT_FAIL;
			break;
		}
		err = damon_monitor_status(d[k], &on[k], NULL);
		if (!err)
			err = damos_schemes_read(d[k], &s, &n);
		status = err ? cli_lib_error(c, err) :
			       tier_schemes(c, k, s, n, &nid[k]);
		damos_schemes_free(s, n);
	}
	c->kdamond = saved;
	c->iface = saved_iface;
	return status;
}

static void tier_close(struct cli *c, struct damon_ctx *d[2], int *status)
{
	for (int k = 0; k < 2; k++)
		if (d[k])
			*status = cli_close(c, d[k], *status);
}

/* tier disable's edit: kdamonds 0 and 1, the tier's, off */
static int off_edit(struct cli *c, struct damon_setup *s, void *arg)
{
	int status = EXIT_OK, nid;

	(void)arg;
	for (int k = 0; k < 2 && !status; k++) {
		struct damon_kdamond_setup *kd = (size_t)k < s->nr_kdamonds ?
						 &s->kdamonds[k] : NULL;

		status = tier_schemes(c, k, kd ? kd->schemes : NULL,
				      kd ? kd->nr_schemes : 0, &nid);
		if (!status)
			kd->on = false;
	}
	return status;
}

static int do_disable(struct cli *c, int argc, char **argv)
{
	int status;

	(void)argc;
	(void)argv;
	status = cli_setup_edit(c, off_edit, NULL);
	/* in a batch too: the note says it is done */
	if (!status)
		status = cli_setup_flush(c);
	if (!status)
		cli_note(c, "kdamonds 0 and 1 off; 'damoctl tier run' ends at its next round");
	return status;
}

static void vmstat_line(struct cli *c)
{
	static const char *const keys[] = {
		"pgmigrate_success", "pgmigrate_fail", "pgdemote_kswapd",
		"pgdemote_direct", "pgdemote_khugepaged", "pgpromote_success",
	};
	bool seen[6] = { false };
	unsigned long long v[6] = { 0 };
	char line[256], key[64];
	unsigned long long x;
	FILE *f = sys_open(c, "proc/vmstat");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", key, &x) == 2)
			for (int i = 0; i < 6; i++)
				if (!strcmp(key, keys[i])) {
					v[i] = x;
					seen[i] = true;
				}
	if (f)
		fclose(f);
	fprintf(c->out, "pages moved (/proc/vmstat, since boot):\n");
	for (int i = 0; i < 6; i++)
		if (seen[i])
			fprintf(c->out, "  %-20s %llu\n", keys[i], v[i]);
		else
			fprintf(c->out, "  %-20s not on this kernel\n", keys[i]);
}

static int do_status(struct cli *c, int argc, char **argv)
{
	struct node nodes[MAX_NODES];
	struct damon_ctx *d[2];
	int nid[2], nr = 0, status;
	bool on[2];

	(void)argc;
	(void)argv;
	status = nodes_read(c, nodes, &nr);
	if (status)
		return status;
	fprintf(c->out, "nodes:\n");
	for (int i = 0; i < nr; i++) {
		uint64_t total = 0, fr = 0;

		if (node_mem(c, nodes[i].id, &total, &fr))
			return EXIT_FAIL;
		fprintf(c->out, "  node %d  %s  %llu MiB, %llu MiB used (%.1f%%)\n", nodes[i].id,
			nodes[i].cpus ? "CPUs   " : "no CPUs",
			(unsigned long long)(total >> 20),
			(unsigned long long)((total - fr) >> 20),
			100.0 * (double)(total - fr) / (double)total);
	}
	vmstat_line(c);
	status = tier_find(c, d, nid, on);
	if (status) {
		tier_close(c, d, &status);
		return status;
	}
	fprintf(c->out, "schemes:\n");
	for (int k = 0; k < 2; k++) {
		struct damos_scheme **s = NULL;
		struct damos_goal_info g = { .sz = sizeof(g) };
		size_t n = 0;

		cli_stats_update(c, d[k]);
		if (damos_schemes_read(d[k], &s, &n) || !n)
			continue;
		damos_scheme_goal(s[0], 0, &g);
		fprintf(c->out, "  kdamond %d %s  %s to node %d: %llu bytes applied, quota now %llu bytes a %llu ms window; goal user_input %llu bp (%s), last fed %llu\n",
			k, on[k] ? "on " : "off", damos_action_name(damos_scheme_action(s[0])),
			nid[k], (unsigned long long)damos_scheme_get(s[0], DAMOS_F_SZ_APPLIED),
			(unsigned long long)damos_scheme_get(s[0], DAMOS_F_EFFECTIVE_BYTES),
			(unsigned long long)damos_scheme_get(s[0], DAMOS_F_QUOTA_RESET_MS),
			(unsigned long long)g.target,
			k ? "the fast node's used memory" : "the fast node's free memory",
			(unsigned long long)g.current);
		damos_schemes_free(s, n);
	}
	fprintf(c->out, "goals: user_input, fed by damoctl tier run from node %d's meminfo (Linux before 6.16 has no node_mem_free_bp/node_mem_used_bp)\n",
		nid[1]);
	tier_close(c, d, &status);
	return status;
}

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/*
 * Every INTERVAL: the goals' current values from the fast node's meminfo,
 * written (damos_goal_current_write: current_value, then
 * commit_schemes_quota_goals), the lock taken only for that.  The two
 * handles are opened and checked once (a probe and a read of every scheme
 * each round cost 170 ms of CPU a round under TCG); a setup changed under
 * it fails a write, and the unit starts it again.  Ends when the tier
 * kdamonds are off (tier disable) or on SIGTERM/SIGINT.
 */
static int do_run(struct cli *c, int argc, char **argv)
{
	uint64_t interval_us = 1000000, rounds = 0, writes = 0;
	uint64_t fed[2] = { UINT64_MAX, UINT64_MAX }, since[2] = { 0, 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	struct damon_ctx *d[2];
	int nid[2], status;
	bool on[2];

	if (argc == 2 && !strcmp(argv[0], "interval")) {
		if (damos_parse_time_us(argv[1], 1000000, &interval_us) ||
		    interval_us < 100000 || interval_us > 3600000000ULL)
			return cli_error(c, EXIT_USAGE, "interval: '%s' is not a time of 100ms to 1h", argv[1]);
	} else if (argc) {
		return cli_error(c, EXIT_USAGE, "'%s': expected [interval TIME]", argv[0]);
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	status = tier_find(c, d, nid, on);
	while (!status && !stop_sig) {
		uint64_t fr = 0, used = 0;
		int err = 0;

		for (int k = 0; k < 2 && !err; k++)
			err = damon_monitor_status(d[k], &on[k], NULL);
		if (err) {
			status = cli_lib_error(c, err);
			break;
		}
		if (!on[0] && !on[1]) {
			cli_note(c, "kdamonds 0 and 1 are off: nothing to feed (%llu rounds, %llu writes)",
				 (unsigned long long)rounds, (unsigned long long)writes);
			break;
		}
		/* kdamond 1 moves to the fast node: its target node */
		status = goal_values(c, nid[1], &fr, &used);
		/*
		 * Written when it moved by FEED_STEP_BP or more, or a minute
		 * has passed: each write is a transaction (a snapshot of the
		 * DAMON tree, a journal), 90 ms of CPU under TCG.
		 */
		for (int k = 0; !status && !err && k < 2; k++) {
			uint64_t v = k ? used : fr;

			if (!on[k] || (fed[k] != UINT64_MAX && since[k] < 60000000 / interval_us &&
				       (v > fed[k] ? v - fed[k] : fed[k] - v) < FEED_STEP_BP)) {
				since[k]++;
				continue;
			}
			err = damos_goal_current_write(d[k], 0, 0, v);
			fed[k] = v;
			since[k] = 0;
			writes++;
		}
		if (err)
			status = cli_lib_error(c, err);
		if (status)
			break;
		rounds++;
		cli_lock_pause(c);
		{
			struct timespec ts = { (time_t)(interval_us / 1000000),
					       (long)(interval_us % 1000000) * 1000 };

			while (!stop_sig && nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
		if (stop_sig)
			break;
		if (cli_lock_resume(c))
			status = EXIT_FAIL;
	}
	if (!status && stop_sig)
		cli_note(c, "SIG%s after %llu rounds, %llu writes", stop_sig == SIGINT ? "INT" : "TERM",
			 (unsigned long long)rounds, (unsigned long long)writes);
	tier_close(c, d, &status);
	return status;
}

#define TIER_ARGS "[fast N] [slow N] [quota SIZE] [free PCT] [used PCT] [cold TIME] [hot PCT]"

const struct cli_cmd tier_cmds[] = {
	{ "status", do_status, "",
	  "each node's memory, the pages moved (vmstat), the tier schemes' applied bytes, quotas and goals" },
	{ "conf", do_conf, TIER_ARGS,
	  "print the damoctl.conf(5) text 'tier enable' applies (two kdamond sections), writing nothing",
	  NULL, CLI_NOLOCK },
	{ "enable", do_enable, TIER_ARGS,
	  "cold pages of the fast node (with CPUs) to the slow one (without), hot ones back: two kdamonds, one transaction (Linux 6.11+)",
	  NULL, CLI_WRITE },
	{ "disable", do_disable, "", "turn the two tier kdamonds off", NULL, CLI_WRITE },
	{ "run", do_run, "[interval TIME]",
	  "feed the goals every second (TIME) from the fast node's meminfo until the tier is off or SIGTERM (damoctl-tier.service)",
	  NULL, CLI_WRITE | CLI_NOHOLD },
	{ NULL },
};
