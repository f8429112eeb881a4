// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The handle API against fake trees in a temporary directory. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "damos-private.h"
#include "layers.h"

/*
 * The read-modify-writes damoctl's scheme add, rm and clear make (through
 * damon_setup_apply() now): the schemes read, changed, written whole.
 */
static int scheme_add(struct damon_ctx *d, const struct damos_scheme *s)
{
	struct damos_scheme **arr, **tmp;
	size_t n;
	int err = damos_scheme_validate(s);

	if (!err)
		err = damos_schemes_read(d, &arr, &n);
	if (err)
		return err;
	tmp = realloc(arr, (n + 1) * sizeof(*arr));
	assert_non_null(tmp);
	arr = tmp;
	arr[n++] = damos_scheme_dup(s);
	err = damos_schemes_write(d, arr, n);
	damos_schemes_free(arr, n);
	return err ? err : (int)(n - 1);
}

static int scheme_remove(struct damon_ctx *d, size_t idx)
{
	struct damos_scheme **arr;
	size_t n;
	int err = damos_schemes_read(d, &arr, &n);

	if (err)
		return err;
	if (idx >= n) {
		damos_schemes_free(arr, n);
		return -ENOENT;
	}
	damos_scheme_free(arr[idx]);
	memmove(&arr[idx], &arr[idx + 1], (n - idx - 1) * sizeof(*arr));
	err = damos_schemes_write(d, arr, n - 1);
	damos_schemes_free(arr, n - 1);
	return err;
}

static int schemes_clear(struct damon_ctx *d)
{
	return damos_schemes_write(d, NULL, 0);
}

#define LRU_PRIO_LINE \
	"4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0\n"

struct tree {
	char root[64];
};

static void put(const struct tree *t, const char *rel, const char *content)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void unlink_rel(const struct tree *t, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	unlink(path);
}

static char *get(const struct tree *t, const char *rel)
{
	static char buf[4096];
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup_tree(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	strcpy(t->root, "/tmp/damos-unit-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	*state = t;
	return 0;
}

static int teardown_tree(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (system(cmd))
		return -1;
	free(t);
	return 0;
}

/* The files as they are, without the fake kernel's doings. */
static const struct damos_layer *const files_only[] = { NULL };
/* The fake kernel of the test build (tests/layers/emul.c). */
static const struct damos_layer *const fake[] = {
	&damos_test_layer_fake_kernel_auto, NULL,
};

static struct damon_ctx *open_tree(const struct tree *t, enum damon_iface iface,
			       bool dry_run)
{
	struct damon_opts o = DAMON_OPTS_INIT;
	const struct damos_layer *dry[] = {
		damos_layer_dry_run(), &damos_test_layer_fake_kernel_auto, NULL,
	};

	o.root = t->root;
	o.layers = fake;
	o.iface = iface;
	o.layers = dry_run ? dry : fake;
	return damon_open(&o);
}

/* The last failure's hint is @hint, its advice fits right after @after. */
static void assert_hint(enum damos_hint hint, const char *after, int64_t arg)
{
	struct damos_hint_info h = { .sz = sizeof(h) };
	const char *msg = damos_errmsg(), *at = strstr(msg, after);

	assert_int_equal(damos_error_hint(&h), 0);
	assert_int_equal(h.hint, hint);
	assert_non_null(at);
	assert_int_equal(h.pos, at + strlen(after) - msg);
	assert_int_equal(h.arg, arg);
}

static void make_sysfs(const struct tree *t, const char *state);

/* The files of a dbgfs context in @dir (the first: the damon directory). */
static void make_dbgfs_ctx(const struct tree *t, const char *dir,
			   const char *schemes)
{
	static const char *const files[][2] = {
		{ "attrs", "5000 100000 60000000 10 1000\n" },
		{ "target_ids", "\n" }, { "init_regions", "" },
		{ "kdamond_pid", "none\n" },
	};
	char p[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i][0]);
		put(t, p, files[i][1]);
	}
	snprintf(p, sizeof(p), "%s/schemes", dir);
	put(t, p, schemes);
}

static void make_dbgfs(const struct tree *t)
{
	make_dbgfs_ctx(t, "sys/kernel/debug/damon", "");
	put(t, "sys/kernel/debug/damon/monitor_on", "off\n");
	put(t, "sys/kernel/debug/damon/mk_contexts", "");
	put(t, "sys/kernel/debug/damon/rm_contexts", "");
}

static void test_open_errors(void **state)
{
	struct tree *t = *state;
	struct damon_opts o = DAMON_OPTS_INIT;

	assert_int_equal(damos_detect(t->root), 0);
	errno = 0;
	assert_null(open_tree(t, DAMON_IFACE_AUTO, false));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(damos_errmsg(), "no DAMON interface"));
	make_dbgfs(t);
	assert_int_equal(damos_detect(t->root), 1U << DAMON_IFACE_DBGFS);
	assert_null(open_tree(t, DAMON_IFACE_SYSFS, false));
	o.root = t->root;
	o.layers = fake;
	o.kdamond = -1;
	assert_null(damon_open(&o));
	assert_int_equal(errno, EINVAL);
	o = (struct damon_opts)DAMON_OPTS_INIT;
	o.sz = 0;
	assert_null(damon_open(&o));
	assert_int_equal(errno, EINVAL);
	/* a kdamond is sysfs's, a context dbgfs's: refused, not ignored */
	o = (struct damon_opts)DAMON_OPTS_INIT;
	o.root = t->root;
	o.layers = fake;
	o.iface = DAMON_IFACE_DBGFS;
	o.kdamond = 1;
	assert_null(damon_open(&o));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(damos_errmsg(), "sysfs kdamond 1 on the dbgfs interface");
	o.iface = DAMON_IFACE_SYSFS;
	o.kdamond = 0;
	o.dbgfs_ctx = "foo";
	assert_null(damon_open(&o));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(damos_errmsg(), "dbgfs context 'foo' on the sysfs interface");
}

/* The directories the lock of libdamos(3) names, from any root. */
static void test_lock_dirs_of_root(void **state)
{
	char *p;

	(void)state;
	p = damon_iface_dir("/r//", DAMON_IFACE_SYSFS);
	assert_string_equal(p, "/r/sys/kernel/mm/damon/admin");
	free(p);
	p = damon_iface_dir(NULL, DAMON_IFACE_DBGFS);
	assert_string_equal(p, "/sys/kernel/debug/damon");
	free(p);
	errno = 0;
	assert_null(damon_iface_dir("/r", DAMON_IFACE_AUTO));
	assert_int_equal(errno, EINVAL);
	p = damon_module_dir("/", "damon_reclaim");
	assert_string_equal(p, "/sys/module/damon_reclaim/parameters");
	free(p);
	p = damon_module_dir("/r/", "lru_sort");
	assert_string_equal(p, "/r/sys/module/damon_lru_sort/parameters");
	free(p);
	errno = 0;
	assert_null(damon_module_dir("/r", "swap"));
	assert_int_equal(errno, ENOENT);
}

/* A caller built against a header whose damon_opts ended before .layers. */
static void test_opts_older_caller(void **state)
{
	struct tree *t = *state;
	struct damon_opts o = DAMON_OPTS_INIT;
	const struct damos_layer *dry[] = { damos_layer_dry_run(), NULL };
	struct damon_ctx *d;

	make_dbgfs(t);
	o.root = t->root;
	o.layers = fake;
	o.layers = dry;		/* beyond the old size: ignored */
	o.sz = offsetof(struct damon_opts, layers);
	d = damon_open(&o);
	assert_non_null(d);
	assert_int_equal(damon_get_iface(d), DAMON_IFACE_DBGFS);
	assert_int_equal(schemes_clear(d), 0);
	assert_string_equal(damos_dry_run_script(d), "");
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"), "\n");
	damon_close(d);
}

/*
 * A newer caller's longer struct: zero bytes past what this library knows
 * are fine, a set one is refused (it cannot be honoured), for options and
 * for the filters and goals a caller passes in.
 */
static void test_newer_caller(void **state)
{
	struct tree *t = *state;
	struct {
		struct damon_opts o;
		uint64_t extra;
	} big = { DAMON_OPTS_INIT, 0 };
	struct {
		struct damos_filter_info f;
		uint64_t extra;
	} bf = { { .sz = sizeof(bf), .type = DAMOS_FILTER_ANON }, 0 };
	struct {
		struct damos_goal_info g;
		uint64_t extra;
	} bg = { { .sz = sizeof(bg), .metric = DAMOS_GOAL_USER_INPUT, .target = 5 }, 0 };
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_PAGEOUT);
	struct damon_ctx *d;

	make_dbgfs(t);
	big.o.root = t->root;
	big.o.sz = sizeof(big);
	d = damon_open(&big.o);
	assert_non_null(d);
	damon_close(d);
	big.extra = 1;
	errno = 0;
	assert_null(damon_open(&big.o));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(damos_errmsg(), "damon_opts: byte"));

	assert_int_equal(damos_scheme_add_filter(s, &bf.f), 0);
	assert_int_equal(damos_scheme_add_goal(s, &bg.g), 0);
	bf.extra = 1;
	bg.extra = 7;
	assert_int_equal(damos_scheme_add_filter(s, &bf.f), -EINVAL);
	assert_string_equal(damos_errmsg(),
			    "damos_filter_info: byte 64 is set, and this libdamos knows only the first 64 (fields of a newer version)");
	assert_int_equal(damos_scheme_add_goal(s, &bg.g), -EINVAL);
	assert_non_null(strstr(damos_errmsg(), "damos_goal_info: byte"));
	assert_int_equal(damos_scheme_nr_filters(s), 1);
	assert_int_equal(damos_scheme_nr_goals(s), 1);
	/* and a short one is refused, not read past its end */
	bf.f.sz = sizeof(size_t);
	assert_int_equal(damos_scheme_add_filter(s, &bf.f), -EINVAL);
	assert_string_equal(damos_errmsg(), "damos_filter_info: .sz not set");
	damos_scheme_free(s);
}

/* struct damon_attrs and damon_targets carry .sz like the other structs. */
static void test_sized_attrs_targets(void **state)
{
	struct tree *t = *state;
	struct {
		struct damon_attrs a;
		uint64_t extra;
	} big = { DAMON_ATTRS_INIT, 0 };
	struct damon_attrs a = { 0 }, r;
	struct damon_targets tg = { .ops = DAMON_OPS_PADDR }, rt;
	struct damon_ctx *d;
	char buf[128];

	/* filled by the library: .sz set */
	damon_attrs_default(&a);
	assert_int_equal(a.sz, sizeof(a));
	assert_int_equal(damon_attrs_decode("1 2 3 4 5", &r), 0);
	assert_int_equal(r.sz, sizeof(r));
	/* made by hand without .sz: refused, not guessed */
	a.sz = 0;
	assert_int_equal(damon_attrs_validate(&a), -EINVAL);
	assert_string_equal(damos_errmsg(), "damon_attrs: .sz not set");
	assert_int_equal(damon_attrs_encode(&a, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(damon_attrs_set_str(&a, "aggr", "1s"), -EINVAL);
	assert_int_equal(damon_attrs_max_nr_accesses(&a), 0);
	assert_null(damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a));
	assert_null(damos_scheme_parse(1, (const char *const[]){ "stat" }, &a));
	/* a newer caller's: zeros past the known fields, else refused */
	damon_attrs_default(&big.a);
	big.a.sz = sizeof(big);
	assert_int_equal(damon_attrs_validate(&big.a), 0);
	big.extra = 2;
	assert_int_equal(damon_attrs_validate(&big.a), -EINVAL);
	assert_non_null(strstr(damos_errmsg(), "damon_attrs: byte 48 is set"));

	make_sysfs(t, "off\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damon_attrs_write(d, &a), -EINVAL);
	assert_int_equal(damon_targets_write(d, &tg), -EINVAL);
	assert_string_equal(damos_errmsg(), "damon_targets: .sz not set");
	assert_null(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/operations"));
	tg.sz = sizeof(tg);
	assert_int_equal(damon_targets_write(d, &tg), 0);
	assert_int_equal(damon_targets_read(d, &rt), 0);
	assert_int_equal(rt.sz, sizeof(rt));
	damon_targets_free(&rt);
	assert_int_equal(rt.sz, sizeof(rt));
	assert_int_equal(damon_attrs_read(d, &r), 0);
	assert_int_equal(r.sz, sizeof(r));
	damon_close(d);
}

static void test_dbgfs_add_remove(void **state)
{
	struct tree *t = *state;
	struct damon_attrs a;
	struct damos_scheme *s, **arr;
	struct damon_ctx *d;
	size_t n;

	make_dbgfs(t);
	put(t, "sys/kernel/debug/damon/schemes",
	    "1 2 3 4 5 6 4 0 0 0 1 2 3 1 100 3 2 1 9 9 9 9 9\n");
	d = open_tree(t, DAMON_IFACE_AUTO, false);
	assert_non_null(d);
	assert_string_equal(damon_get_dir(d) + strlen(t->root),
			    "/sys/kernel/debug/damon");
	assert_int_equal(damos_dbgfs_lru_supported(d), 1);
	assert_int_equal(damon_attrs_read(d, &a), 0);
	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a);
	assert_int_equal(scheme_add(d, s), 1);
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"),
			    "1 2 3 4 5 6 4 0 0 0 1 2 3 1 100 3 2 1\n" LRU_PRIO_LINE);
	assert_int_equal(damos_schemes_read(d, &arr, &n), 0);
	assert_int_equal(n, 2);
	assert_true(damos_scheme_equal(arr[1], s));
	damos_schemes_free(arr, n);
	assert_int_equal(scheme_remove(d, 5), -ENOENT);
	assert_int_equal(scheme_remove(d, 0), 0);
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"),
			    LRU_PRIO_LINE);
	/* an invalid scheme is refused before anything is read or written */
	damos_scheme_set(s, DAMOS_F_MIN_AGE, 9);
	damos_scheme_set(s, DAMOS_F_MAX_AGE, 8);
	assert_int_equal(scheme_add(d, s), -EINVAL);
	assert_string_equal(damos_errmsg(), "min age 9 > max age 8");
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"),
			    LRU_PRIO_LINE);
	damos_scheme_free(s);
	damon_close(d);
}

static void test_dbgfs_busy_and_stock(void **state)
{
	struct tree *t = *state;
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_LRU_DEPRIO);
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_ctx *d;
	bool on;
	int pid;

	make_dbgfs(t);
	put(t, "sys/kernel/debug/damon/monitor_on", "on\n");
	put(t, "sys/kernel/debug/damon/kdamond_pid", "777\n");
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damon_monitor_status(d, &on, &pid), 0);
	assert_true(on);
	assert_int_equal(pid, 777);
	assert_int_equal(scheme_add(d, s), -EBUSY);
	assert_string_equal(damos_errmsg(),
			    "monitoring is on and dbgfs refuses to change schemes while it runs: stop it first; nothing was changed");
	assert_hint(DAMOS_HINT_STOP_MONITOR, "stop it first", 0);
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"), "");
	assert_int_equal(damon_monitor_stop(d), 0);
	damon_close(d);

	put(t, "sys/kernel/debug/damon/.max_action", "5\n");
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damos_dbgfs_lru_supported(d), 0);
	assert_int_equal(scheme_add(d, s), -EOPNOTSUPP);
	assert_hint(DAMOS_HINT_USE_SYSFS, "kernel series)", 0);
	assert_string_equal(damos_errmsg() + strlen(damos_errmsg()) - 21,
			    "; nothing was changed");
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"), "");
	damon_close(d);

	/* the caller's word wins over the tree's */
	o.root = t->root;
	o.layers = fake;
	o.dbgfs_lru = 1;
	d = damon_open(&o);
	assert_int_equal(damos_dbgfs_lru_supported(d), 1);
	assert_int_equal(scheme_add(d, s), 0);
	damon_close(d);
	damos_scheme_free(s);
}

/*
 * Not emulating, the library probes as on a real debugfs: mk_contexts, a
 * test scheme in the private context, rm_contexts.  Plain files make no
 * context, so the answer is "unknown" and the user's schemes are untouched.
 */
static void test_dbgfs_probe_unknown(void **state)
{
	struct tree *t = *state;
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_LRU_PRIO);
	struct damon_ctx *d;
	char name[64];

	make_dbgfs(t);
	put(t, "sys/kernel/debug/damon/schemes", "1 2 3 4 5 6 4 0 0 0 1 2 3 1 100 3 2 1\n");
	o.root = t->root;
	o.layers = fake;
	o.layers = files_only;	/* no fake kernel: as on a kernel */
	d = damon_open(&o);
	assert_non_null(d);
	assert_int_equal(damos_dbgfs_lru_supported(d), -EAGAIN);
	snprintf(name, sizeof(name), "damos_probe_%d\n", (int)getpid());
	assert_string_equal(get(t, "sys/kernel/debug/damon/mk_contexts"), name);
	assert_string_equal(get(t, "sys/kernel/debug/damon/rm_contexts"), name);
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"),
			    "1 2 3 4 5 6 4 0 0 0 1 2 3 1 100 3 2 1\n");
	/* unknown: the write itself decides (a kernel would say EINVAL) */
	assert_int_equal(scheme_add(d, s), 1);
	damon_close(d);
	damos_scheme_free(s);
}

static void test_dbgfs_targets(void **state)
{
	struct tree *t = *state;
	struct damon_region r[2] = { { 4096, 8192 }, { 8192, 16384 } };
	struct damon_target tg = { .pid = 0, .nr_regions = 2, .regions = r };
	struct damon_targets in = { sizeof(in), DAMON_OPS_PADDR, 1, &tg }, out;
	struct damon_ctx *d;

	make_dbgfs(t);
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damon_targets_write(d, &in), 0);
	assert_string_equal(get(t, "sys/kernel/debug/damon/target_ids"), "paddr\n");
	assert_string_equal(get(t, "sys/kernel/debug/damon/init_regions"),
			    "0 4096 8192\n0 8192 16384\n");
	/* what the kernel shows for paddr */
	put(t, "sys/kernel/debug/damon/target_ids", "42\n");
	assert_int_equal(damon_targets_read(d, &out), 0);
	assert_int_equal(out.ops, DAMON_OPS_PADDR);
	assert_int_equal(out.nr, 1);
	assert_int_equal(out.targets[0].nr_regions, 2);
	assert_int_equal(out.targets[0].regions[1].end, 16384);
	damon_targets_free(&out);
	r[1].start = 4096;
	assert_int_equal(damon_targets_write(d, &in), -EINVAL);
	damon_close(d);
}

/* A handle opened on a context mk_contexts made works on it alone. */
static void test_dbgfs_contexts(void **state)
{
	struct tree *t = *state;
	struct damon_opts o = DAMON_OPTS_INIT;
	const char *line = "4096 8192 0 5 10 20 2 0 0 0 0 0 0 0 0 0 0 0\n";
	struct damon_ctx *ctx;

	make_dbgfs(t);
	make_dbgfs_ctx(t, "sys/kernel/debug/damon/zed", line);
	put(t, "sys/kernel/debug/damon/schemes", line);
	o.root = t->root;
	o.layers = fake;
	o.dbgfs_ctx = "zed";
	ctx = damon_open(&o);
	assert_non_null(ctx);
	assert_int_equal(schemes_clear(ctx), 0);
	assert_string_equal(get(t, "sys/kernel/debug/damon/zed/schemes"), "\n");
	/* the first context is another's */
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"), line);
	damon_close(ctx);
}

static void make_sysfs(const struct tree *t, const char *state)
{
	put(t, "sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds", "1\n");
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/state", state);
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/pid", "-1\n");
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/nr_contexts", "0\n");
}

static void test_sysfs_dry_run(void **state)
{
	struct tree *t = *state;
	struct damon_attrs a;
	struct damos_scheme *s;
	struct damon_ctx *d;
	const char *script;

	make_sysfs(t, "on\n");
	d = open_tree(t, DAMON_IFACE_AUTO, true);
	assert_int_equal(damon_get_iface(d), DAMON_IFACE_SYSFS);
	assert_int_equal(damos_dbgfs_lru_supported(d), -EOPNOTSUPP);
	assert_int_equal(damon_attrs_read(d, &a), 0);
	assert_int_equal(a.aggr_us, 100000);
	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_DEPRIO, &a);
	assert_int_equal(scheme_add(d, s), 0);
	script = damos_dry_run_script(d);
	assert_non_null(strstr(script, "echo 1 > "));
	assert_non_null(strstr(script, "/kdamonds/0/contexts/nr_contexts\n"));
	assert_non_null(strstr(script, "echo lru_deprio > "));
	assert_non_null(strstr(script, "echo 1200 > "));
	assert_non_null(strstr(script, "/contexts/0/schemes/0/access_pattern/age/min\n"));
	assert_non_null(strstr(script, "echo commit > "));
	/* nothing written */
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/nr_contexts"),
			    "0\n");
	damos_scheme_free(s);
	damon_close(d);
}

/* lib/internal.h: the one write of every DAMON file */
int damos_write(struct damon_ctx *d, const char *path, const char *content);

/*
 * Issue 14: a dry-run script writes each content exactly, in one write(),
 * under dash and under bash: a here-document through cat for several lines
 * (a line that is the delimiter included), dd for several lines without a
 * final newline; echo or printf for one line.
 */
static void test_dry_run_script_shells(void **state)
{
	static const char *const contents[] = {
		"one\n", "a b\nc d\n", "EOF\nx\n", "a\nEOF\nEOF1\nb",
		"-x\n", "back\\slash\n", "it's\n", "no newline", "\n",
	};
	static const char *const shells[] = { "dash", "bash" };
	struct tree *t = *state;
	char path[PATH_MAX], cmd[PATH_MAX + 64];

	make_dbgfs(t);
	for (size_t i = 0; i < sizeof(contents) / sizeof(*contents); i++) {
		struct damon_ctx *d = open_tree(t, DAMON_IFACE_DBGFS, true);
		FILE *f;

		assert_non_null(d);
		snprintf(path, sizeof(path), "%s/init_regions", damon_get_dir(d));
		assert_int_equal(damos_write(d, path, contents[i]), 0);
		snprintf(path, sizeof(path), "%s/script", t->root);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "set -e\n%s", damos_dry_run_script(d));
		fclose(f);
		damon_close(d);
		for (size_t k = 0; k < 2; k++) {
			put(t, "sys/kernel/debug/damon/init_regions", "before\n");
			snprintf(cmd, sizeof(cmd), "%s '%s' 2>/dev/null", shells[k], path);
			assert_int_equal(system(cmd), 0);
			assert_string_equal(get(t, "sys/kernel/debug/damon/init_regions"),
					    contents[i]);
		}
	}
}

/*
 * The public setup API alone (damos.h): read, edit in memory, apply; a
 * second apply writes nothing (its plan is empty); a plan writes nothing;
 * an invalid part is refused before any write; another tool's scheme the
 * library cannot judge is kept as it is.
 */
static void test_setup_apply(void **state)
{
	struct tree *t = *state;
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_setup *s, *again;
	struct damon_kdamond_setup *k;
	struct damos_scheme **arr;
	char *plan = NULL;

	make_sysfs(t, "off\n");
	o.root = t->root;
	o.layers = fake;
	assert_int_equal(damon_setup_read(&o, &s), 0);
	assert_int_equal(s->iface, DAMON_IFACE_SYSFS);
	assert_int_equal(s->nr_kdamonds, 1);
	k = &s->kdamonds[0];
	assert_false(k->on);
	k->attrs.aggr_us = 200000;
	arr = realloc(k->schemes, (k->nr_schemes + 1) * sizeof(*arr));
	assert_non_null(arr);
	k->schemes = arr;
	arr[k->nr_schemes++] = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &k->attrs);

	/* the plan: nothing written (no context yet), the writes named */
	assert_null(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us"));
	assert_int_equal(damon_setup_apply(&o, s, &plan), 0);
	assert_non_null(plan);
	assert_non_null(strstr(plan, "echo 200000 > "));
	assert_non_null(strstr(plan, "/schemes/nr_schemes"));
	assert_non_null(strstr(plan, "echo 1 > "));	/* nr_contexts */
	free(plan);
	assert_null(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us"));
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/nr_contexts"), "0\n");

	/* applied, read back the same; again: an empty plan */
	assert_int_equal(damon_setup_apply(&o, s, NULL), 0);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us"),
			    "200000\n");
	assert_int_equal(damon_setup_read(&o, &again), 0);
	assert_int_equal(again->kdamonds[0].nr_schemes, k->nr_schemes);
	assert_true(damos_scheme_equal(again->kdamonds[0].schemes[k->nr_schemes - 1],
				       k->schemes[k->nr_schemes - 1]));
	assert_int_equal(damon_setup_apply(&o, again, &plan), 0);
	assert_string_equal(plan, "");
	free(plan);
	damon_setup_free(again);

	/*
	 * another tool changes a file: the next plan reads it as it is now,
	 * not as an earlier plan of the process left it in its overlay
	 */
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us",
	    "400000\n");
	assert_int_equal(damon_setup_apply(&o, s, &plan), 0);
	assert_non_null(strstr(plan, "echo 200000 > "));
	free(plan);

	/* an invalid part: refused, nothing written */
	k->attrs.min_nr_regions = 1;
	assert_int_equal(damon_setup_apply(&o, s, NULL), -EINVAL);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/nr_regions/min"),
			    "10\n");
	damon_setup_free(s);
}

static void test_sysfs_emulated(void **state)
{
	struct tree *t = *state;
	struct damos_scheme *s, **arr;
	struct damon_attrs a;
	struct damon_ctx *d;
	size_t n;

	make_sysfs(t, "off\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damon_attrs_read(d, &a), 0);
	a.aggr_us = 200000;
	assert_int_equal(damon_attrs_write(d, &a), 0);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us"),
			    "200000\n");
	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a);
	assert_int_equal(damos_scheme_get(s, DAMOS_F_MIN_NR_ACCESSES), 20);
	assert_int_equal(scheme_add(d, s), 0);
	assert_int_equal(scheme_add(d, s), 1);
	assert_int_equal(damos_schemes_read(d, &arr, &n), 0);
	assert_int_equal(n, 2);
	assert_true(damos_scheme_equal(arr[0], s));
	assert_true(damos_scheme_equal(arr[1], s));
	damos_schemes_free(arr, n);
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/1/action",
	    "bogus\n");
	/* an action the library does not know is read, kept and written back */
	assert_int_equal(damos_schemes_read(d, &arr, &n), 0);
	assert_int_equal(damos_scheme_action(arr[1]), DAMOS_ACTION_UNKNOWN);
	assert_string_equal(damos_scheme_action_name(arr[1]), "bogus");
	damos_schemes_free(arr, n);
	assert_int_equal(scheme_remove(d, 0), 0);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/action"),
			    "bogus\n");
	assert_int_equal(schemes_clear(d), 0);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes"),
			    "0\n");
	assert_null(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/action"));
	damos_scheme_free(s);
	damon_close(d);
}

/*
 * Every failure that some other step can cure carries a hint; its words
 * are the library's, a client's advice goes at .pos.
 */
static void test_error_hints(void **state)
{
	struct tree *t = *state;
	struct damos_hint_info h = { .sz = sizeof(h) };
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_STAT);
	struct damon_targets tg = { .sz = sizeof(tg), .ops = DAMON_OPS_FVADDR };
	struct damon_ctx *d;

	/* a failure without a hint has none, its advice would go at the end */
	assert_null(damos_scheme_parse(1, (const char *const[]){ "bogus" }, NULL));
	assert_int_equal(damos_error_hint(&h), 0);
	assert_int_equal(h.hint, DAMOS_HINT_NONE);
	assert_int_equal(h.pos, strlen(damos_errmsg()));
	h.sz = sizeof(size_t);
	assert_int_equal(damos_error_hint(&h), -EINVAL);
	assert_int_equal(damos_error_hint(NULL), -EINVAL);

	make_dbgfs(t);
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damon_monitor_start(d), -EINVAL);
	assert_string_equal(damos_errmsg(), "no monitoring target: set one first");
	assert_hint(DAMOS_HINT_SET_TARGET, "set one first", 0);
	assert_int_equal(damon_targets_write(d, &tg), -EOPNOTSUPP);
	assert_string_equal(damos_errmsg(), "dbgfs has no fvaddr monitoring");
	assert_hint(DAMOS_HINT_USE_SYSFS, "monitoring", 0);
	damon_close(d);

	/* another DAMON user in the way: which one, and which kdamond */
	make_sysfs(t, "off\n");
	put(t, "sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds", "13\n");
	put(t, "sys/kernel/mm/damon/admin/kdamonds/12/state", "on\n");
	put(t, "sys/kernel/debug/damon/target_ids", "42\n");
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damon_monitor_start(d), -EBUSY);
	assert_hint(DAMOS_HINT_STOP_KDAMOND, "stop it first", 12);
	damon_close(d);
	put(t, "sys/kernel/mm/damon/admin/kdamonds/12/state", "off\n");
	put(t, "sys/module/damon_reclaim/parameters/enabled", "Y\n");
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damon_monitor_start(d), -EBUSY);
	assert_string_equal(damos_errmsg(),
			    "damon_reclaim is on, and dbgfs monitoring does not start next to another DAMON user: stop it first");
	assert_hint(DAMOS_HINT_STOP_RECLAIM, "stop it first", 0);
	damon_close(d);
	put(t, "sys/module/damon_reclaim/parameters/enabled", "N\n");
	put(t, "sys/kernel/debug/damon/monitor_on", "on\n");
	put(t, "sys/kernel/debug/damon/kdamond_pid", "4242\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	tg.ops = DAMON_OPS_PADDR;
	tg.nr = 1;
	tg.targets = &(struct damon_target){ 0 };
	assert_int_equal(damon_targets_write(d, &tg), 0);
	assert_int_equal(damon_monitor_start(d), -EBUSY);
	assert_hint(DAMOS_HINT_STOP_DBGFS, "stop it first", 0);
	/*
	 * monitor_on reads on while any context runs, a sysfs kdamond's
	 * too: with one on, dbgfs's own is off while its kdamond_pid says
	 * none (kdamond 12 runs; this handle's kdamond 0 starts)
	 */
	put(t, "sys/kernel/debug/damon/kdamond_pid", "none\n");
	put(t, "sys/kernel/mm/damon/admin/kdamonds/12/state", "on\n");
	assert_int_equal(damon_monitor_start(d), 0);
	put(t, "sys/kernel/mm/damon/admin/kdamonds/12/state", "off\n");
	damon_close(d);

	/* a kdamond that is not there: how many there are */
	put(t, "sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds", "2\n");
	o.root = t->root;
	o.layers = fake;
	o.kdamond = 5;
	d = damon_open(&o);
	assert_non_null(d);
	assert_int_equal(scheme_add(d, s), -ENOENT);
	assert_string_equal(damos_errmsg(),
			    "kdamond 5 does not exist: making it means writing nr_kdamonds, which would remove the 2 kdamonds there with their setup");
	assert_hint(DAMOS_HINT_PICK_KDAMOND, "with their setup", 2);
	damon_close(d);
	damos_scheme_free(s);
}

/* What an interface takes, checked without a write. */
static void test_checks(void **state)
{
	struct tree *t = *state;
	struct damos_scheme *lru = damos_scheme_new(DAMOS_ACTION_LRU_PRIO);
	struct damos_scheme *mig = damos_scheme_new(DAMOS_ACTION_MIGRATE_COLD);
	struct damos_scheme *bad = damos_scheme_new(DAMOS_ACTION_STAT);
	struct damon_targets fv = { .sz = sizeof(fv), .ops = DAMON_OPS_FVADDR };
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damon_ctx *d;
	char *before;

	damos_scheme_set(mig, DAMOS_F_TARGET_NID, 0);
	damos_scheme_set(bad, DAMOS_F_MIN_AGE, 9);
	damos_scheme_set(bad, DAMOS_F_MAX_AGE, 8);
	make_dbgfs(t);
	put(t, "sys/kernel/debug/damon/.max_action", "5\n");
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damos_has(d, DAMOS_FEAT_COMMIT), 0);
	assert_int_equal(damos_scheme_check(d, lru), -EOPNOTSUPP);
	assert_string_equal(damos_errmsg(),
			    "lru_prio: this kernel's dbgfs does not accept lru_prio and lru_deprio (dbgfs actions 6 and 7 need the damos kernel series)");
	assert_hint(DAMOS_HINT_USE_SYSFS, "kernel series)", 0);
	assert_int_equal(damos_scheme_check(d, mig), -EOPNOTSUPP);
	assert_non_null(strstr(damos_errmsg(), "migrate_cold needs"));
	assert_null(strstr(damos_errmsg(), "scheme 0"));
	assert_int_equal(damos_scheme_check(d, bad), -EINVAL);
	assert_int_equal(damon_targets_check(d, &fv), -EOPNOTSUPP);
	assert_hint(DAMOS_HINT_USE_SYSFS, "fvaddr monitoring", 0);
	damon_close(d);
	/* not known before the write: a tree that makes no probe context */
	unlink_rel(t, "sys/kernel/debug/damon/.max_action");
	before = strdup(get(t, "sys/kernel/debug/damon/schemes"));
	o.root = t->root;
	o.layers = fake;
	o.iface = DAMON_IFACE_DBGFS;
	o.layers = files_only;	/* no fake kernel: as on a kernel */
	d = damon_open(&o);
	assert_int_equal(damos_scheme_check(d, lru), 1);
	assert_string_equal(get(t, "sys/kernel/debug/damon/schemes"), before);
	free(before);
	damon_close(d);

	/* sysfs of 6.1: commit, no migrate; fvaddr fine */
	make_sysfs(t, "off\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damos_has(d, DAMOS_FEAT_COMMIT), 1);
	assert_int_equal(damos_scheme_check(d, lru), 0);
	assert_int_equal(damos_scheme_check(d, mig), -EOPNOTSUPP);
	assert_non_null(strstr(damos_errmsg(), "migrate_cold needs"));
	fv.nr = 1;
	fv.targets = &(struct damon_target){ .pid = 1 };
	assert_int_equal(damon_targets_check(d, &fv), 0);
	assert_null(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/operations"));
	damon_close(d);
	damos_scheme_free(lru);
	damos_scheme_free(mig);
	damos_scheme_free(bad);
}

/* tried_regions/ of 6.12, as a fake tree lays it out. */
static void test_tried_regions(void **state)
{
	struct tree *t = *state;
	const char *sch = "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0";
	struct damos_scheme *s = damos_scheme_new(DAMOS_ACTION_STAT);
	struct damos_tried_region reg = { .sz = sizeof(reg) };
	struct damon_opts o = DAMON_OPTS_INIT;
	struct damos_tried_regions *r;
	struct damon_ctx *d;
	char rel[256];

	make_sysfs(t, "off\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(scheme_add(d, s), 0);
	damon_close(d);
	/* a scheme directory without tried_regions/: Linux 6.1's layout */
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damos_tried_regions_read(d, 0, &r), -EOPNOTSUPP);
	assert_null(r);
	assert_non_null(strstr(damos_errmsg(), "reading tried regions needs tried regions (tried_regions/) (Linux 6.2+)"));
	damon_close(d);

	snprintf(rel, sizeof(rel), "%s/tried_regions/total_bytes", sch);
	put(t, rel, "0\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damos_has(d, DAMOS_FEAT_TRIED_REGIONS), 1);
	assert_int_equal(damos_tried_regions_read(d, 0, &r), 0);
	assert_int_equal(damos_tried_regions_nr(r), 0);
	damos_tried_regions_free(r);
	assert_int_equal(damos_tried_regions_read(d, 3, &r), -ENOENT);
	assert_string_equal(damos_errmsg(), "no scheme 3");
	damon_close(d);

	put(t, rel, "12288\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/0/start", sch);
	put(t, rel, "4096\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/0/end", sch);
	put(t, rel, "8192\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/0/nr_accesses", sch);
	put(t, rel, "3\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/0/age", sch);
	put(t, rel, "7\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/1/start", sch);
	put(t, rel, "1048576\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/1/end", sch);
	put(t, rel, "1056768\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/1/nr_accesses", sch);
	put(t, rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/tried_regions/1/age", sch);
	put(t, rel, "120\n");
	/* a kdamond that is on is asked to list them afresh first */
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/state", "on\n");
	o.root = t->root;
	o.layers = fake;
	o.iface = DAMON_IFACE_SYSFS;
	o.layers = files_only;	/* no fake kernel: as on a kernel */
	d = damon_open(&o);
	assert_int_equal(damos_tried_regions_read(d, 0, &r), 0);
	assert_string_equal(get(t, "sys/kernel/mm/damon/admin/kdamonds/0/state"),
			    "update_schemes_tried_regions\n");
	assert_int_equal(damos_tried_regions_nr(r), 2);
	assert_int_equal(damos_tried_regions_total_bytes(r), 12288);
	assert_int_equal(damos_tried_regions_get(r, 1, &reg), 0);
	assert_int_equal(reg.start, 1048576);
	assert_int_equal(reg.end, 1056768);
	assert_int_equal(reg.nr_accesses, 0);
	assert_int_equal(reg.age, 120);
	assert_int_equal(damos_tried_regions_get(r, 0, &reg), 0);
	assert_int_equal(reg.start, 4096);
	assert_int_equal(reg.nr_accesses, 3);
	assert_int_equal(reg.age, 7);
	assert_int_equal(damos_tried_regions_get(r, 2, &reg), -EINVAL);
	reg.sz = 0;
	assert_int_equal(damos_tried_regions_get(r, 0, &reg), -EINVAL);
	damos_tried_regions_free(r);
	damon_close(d);

	/* before 6.6 there is no total_bytes: the sum of the regions */
	snprintf(rel, sizeof(rel), "%s/%s/tried_regions/total_bytes", t->root, sch);
	unlink(rel);
	put(t, "sys/kernel/mm/damon/admin/kdamonds/0/state", "off\n");
	d = open_tree(t, DAMON_IFACE_SYSFS, false);
	assert_int_equal(damos_tried_regions_read(d, 0, &r), 0);
	assert_int_equal(damos_tried_regions_total_bytes(r), 4096 + 8192);
	damos_tried_regions_free(r);
	damon_close(d);

	make_dbgfs(t);
	d = open_tree(t, DAMON_IFACE_DBGFS, false);
	assert_int_equal(damos_tried_regions_read(d, 0, &r), -EOPNOTSUPP);
	assert_non_null(strstr(damos_errmsg(), "which dbgfs does not have"));
	damon_close(d);
	damos_scheme_free(s);
}

/*
 * A targets write that the kernel would refuse half-way (a read-only
 * init_regions: target_ids written, the regions not) is refused before
 * the first write.  Root writes anything: the check runs as nobody.
 */
static void test_targets_writable(void **state)
{
	struct tree *t = *state;
	struct damon_region rg = { 4096, 8192 };
	struct damon_target one = { .pid = 7, .nr_regions = 1, .regions = &rg };
	struct damon_targets tg = { sizeof(tg), DAMON_OPS_VADDR, 1, &one };
	char path[PATH_MAX], cmd[PATH_MAX + 64];
	int status;
	pid_t pid;

	make_dbgfs(t);
	put(t, "sys/kernel/debug/damon/target_ids", "42\n");
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/damon/init_regions", t->root);
	assert_int_equal(chmod(path, 0444), 0);
	if (!geteuid()) {
		snprintf(cmd, sizeof(cmd), "chown -R 65534:65534 '%s'", t->root);
		assert_int_equal(system(cmd), 0);
	}
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct damon_ctx *d;
		int err;

		if (!geteuid() && (setgid(65534) || setuid(65534)))
			_exit(3);
		d = open_tree(t, DAMON_IFACE_DBGFS, false);
		if (!d)
			_exit(4);
		err = damon_targets_write(d, &tg);
		_exit(err == -EACCES &&
		      strstr(damos_errmsg(), "init_regions: Permission denied") &&
		      strstr(damos_errmsg(), "; nothing was changed") ? 0 : 5);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(get(t, "sys/kernel/debug/damon/target_ids"), "42\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_errors, setup_tree,
						teardown_tree),
		cmocka_unit_test(test_lock_dirs_of_root),
		cmocka_unit_test_setup_teardown(test_opts_older_caller,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_newer_caller,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_sized_attrs_targets,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_dbgfs_add_remove,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_dbgfs_busy_and_stock,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_dbgfs_probe_unknown,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_dbgfs_targets, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_dbgfs_contexts, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_sysfs_dry_run, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_dry_run_script_shells,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_setup_apply, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_sysfs_emulated, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_error_hints, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_checks, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tried_regions, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_targets_writable, setup_tree,
						teardown_tree),
	};

	return cmocka_run_group_tests_name("handle", tests, NULL, NULL);
}
