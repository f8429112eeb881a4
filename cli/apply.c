// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl apply [check] FILE: a damoctl.conf(5) file made the live setup in
 * one step.  Everything is checked first, against the file and against
 * what the kernel holds; one bad line and nothing is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct apply {
	struct cli *c;
	const char *name;
	struct cli_conf *cfg;
	struct damon_ctx *d;		/* when the file has a DAMON part */
	struct damon_module *lru;	/* live + the file's, when lru-sort */
	bool lru_on;			/* what the module does now */
	bool mon_on;			/* what DAMON monitoring does now */
	struct damos_scheme *const *schemes;
	size_t nr_schemes;
	bool has_schemes;
	bool schemes_first;		/* may be refused at once: see check_iface */
	struct damon_targets targets;	/* to write: the file's, paddr filled */
	bool has_targets;
	bool has_damon;			/* the file has a DAMON part (not the module only) */
	char **paths;			/* a damo spec's: the JSON path of a line */
	size_t nr_paths;
};

/* @t with paddr's region filled in (cli_paddr_fill) as a->targets. */
static int paddr_targets(struct apply *a, const struct damon_targets *t,
			 unsigned int line)
{
	struct damon_targets *o = &a->targets;
	bool filled;

	o->sz = sizeof(*o);
	o->ops = t->ops;
	o->targets = calloc(t->nr ? t->nr : 1, sizeof(*o->targets));
	if (!o->targets)
		return cli_error(a->c, EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < t->nr; i++) {
		const struct damon_target *s = &t->targets[i];

		o->targets[i].pid = s->pid;
		o->nr++;
		if (!s->nr_regions)
			continue;
		o->targets[i].regions = calloc(s->nr_regions, sizeof(*s->regions));
		if (!o->targets[i].regions)
			return cli_error(a->c, EXIT_FAIL, "out of memory");
		memcpy(o->targets[i].regions, s->regions,
		       s->nr_regions * sizeof(*s->regions));
		o->targets[i].nr_regions = s->nr_regions;
	}
	a->has_targets = true;
	if (o->ops != DAMON_OPS_PADDR || o->nr != 1 || o->targets[0].nr_regions)
		return EXIT_OK;
	{
		struct damon_region *r;
		size_t n;
		char msg[600];

		if (damos_iomem_ram(a->c->root, &r, &n)) {
			snprintf(msg, sizeof(msg),
				 "target: paddr with no region monitors nothing, and %s: give one (region START END)",
				 cli_errmsg());
			cli_conf_add_error(a->cfg, line, msg);
			return EXIT_OK;
		}
		free(r);
	}
	return cli_paddr_fill(a->c, o, &filled);
}

static char *slurp(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	for (;;) {
		if (*len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Print @a's errors; how many, and on how many lines. */
static size_t report_lines(struct apply *a, size_t *nr_lines)
{
	size_t n = cli_conf_nr_errors(a->cfg), nr = 0;
	unsigned int last = 0;
	const char *last_msg = NULL;

	for (size_t i = 0; i < n; i++) {
		unsigned int line;
		const char *msg = cli_conf_error(a->cfg, i, &line);

		/* the file's check and the kernel's may find the same */
		if (i && line == last && !strcmp(msg, last_msg))
			continue;
		last_msg = msg;
		nr++;

		/* a spec's lines are damoctl's own: name the JSON they came from */
		if (a->nr_paths)
			cli_error(a->c, EXIT_USAGE, "%s: %s: %s", a->name,
				  line && line <= a->nr_paths && a->paths[line - 1] ?
				  a->paths[line - 1] : "$", msg);
		else
			cli_error(a->c, EXIT_USAGE, "%s:%u: %s", a->name, line, msg);
		*nr_lines += !i || line != last;
		last = line;
	}
	return nr;
}

static int report_end(struct apply *a, size_t nr, size_t nr_lines)
{
	if (a->nr_paths)
		return cli_error(a->c, EXIT_USAGE, "%s: %zu error%s in the damo spec; nothing was changed",
				 a->name, nr, nr == 1 ? "" : "s");
	return cli_error(a->c, EXIT_USAGE, "%s: %zu bad line%s; nothing was changed",
			 a->name, nr_lines, nr_lines == 1 ? "" : "s");
}

static int report(struct apply *a)
{
	size_t nr_lines = 0, nr = report_lines(a, &nr_lines);

	return report_end(a, nr, nr_lines);
}

/*
 * What the interface or the kernel cannot take, found before the first
 * write (else the attrs would be written and the targets or schemes
 * refused); the library knows what each interface takes.
 */
static void check_iface(struct apply *a, const struct damon_targets *t)
{
	char msg[600];

	if (t && damon_targets_check(a->d, t)) {
		snprintf(msg, sizeof(msg), "target: %s", cli_errmsg());
		cli_conf_add_error(a->cfg, cli_conf_line(a->cfg, "target"),
				       msg);
	}
	for (size_t i = 0; a->has_schemes && i < a->nr_schemes; i++) {
		int r = damos_scheme_check(a->d, a->schemes[i]);

		/*
		 * Not known before the write (damos_scheme_check() is 1):
		 * the kernel decides, and its refusal changes nothing, so
		 * that write goes first and a refusal leaves the attributes
		 * and targets as they were too.  Schemes are written in the
		 * kernel's units, whatever the attributes.
		 */
		if (r > 0)
			a->schemes_first = true;
		if (r >= 0)
			continue;
		snprintf(msg, sizeof(msg), "scheme: %s", cli_errmsg());
		cli_conf_add_error(a->cfg, cli_conf_scheme_line(a->cfg, i),
				       msg);
	}
}

/* The checks that need the live system; failures become line errors. */
static int check_live(struct apply *a)
{
	const struct damon_targets *t = cli_conf_targets(a->cfg);
	int mon = cli_conf_monitor(a->cfg);
	int lru_en = cli_conf_lru_sort_enable(a->cfg);
	struct damon_attrs live;
	struct damon_targets lt = { 0 };
	int err;

	if (a->d) {
		err = damon_monitor_status(a->d, &a->mon_on, NULL);
		if (!err)
			err = damon_attrs_read(a->d, &live);
		if (err)
			return cli_lib_error(a->c, err);
		err = cli_conf_schemes(a->cfg, &live, &a->schemes,
					   &a->nr_schemes);
		a->has_schemes = !err;
		check_iface(a, t);
		if (t && (err = paddr_targets(a, t, cli_conf_line(a->cfg, "target"))))
			return err;
		if (!t) {
			err = damon_targets_read(a->d, &lt);
			if (err) {
				damon_targets_free(&lt);
				return cli_lib_error(a->c, err);
			}
			if (lt.nr)
				cli_conf_check_ops(a->cfg, lt.ops);
			if (mon == 1 && !lt.nr)
				cli_conf_add_error(a->cfg,
						       cli_conf_line(a->cfg, "monitor"),
						       "monitor on: there is no target, here or in the kernel (add a target line)");
			/* a live paddr target of no region: filled, written */
			if (mon == 1 && lt.nr && lt.ops == DAMON_OPS_PADDR &&
			    !lt.targets[0].nr_regions && !a->mon_on &&
			    (err = paddr_targets(a, &lt, cli_conf_line(a->cfg, "monitor")))) {
				damon_targets_free(&lt);
				return err;
			}
			damon_targets_free(&lt);
		}
	}
	if (cli_conf_lru_sort(a->cfg)) {
		struct damon_opts o;
		unsigned int line = cli_conf_line(a->cfg, "lru-sort");

		cli_opts(a->c, &o);
		err = damon_module_read(&o, "lru_sort", &a->lru);
		if (err) {
			cli_conf_add_error(a->cfg, line, cli_errmsg());
		} else {
			a->lru_on = damon_module_enabled(a->lru);
			damon_module_overlay(a->lru, cli_conf_lru_sort(a->cfg));
			if (damon_module_validate(a->lru)) {
				char msg[600];

				snprintf(msg, sizeof(msg), "lru-sort: %s (with the module's other parameters)",
					 cli_errmsg());
				cli_conf_add_error(a->cfg, line, msg);
			}
			/* DAMON monitoring that stays on keeps the module off */
			if (lru_en == 1 && mon != 0 && !a->d) {
				struct damon_ctx *d = cli_open_quiet(a->c);

				if (d)
					damon_monitor_status(d, &a->mon_on, NULL);
				damon_close(d);
			}
			if (lru_en == 1 && mon != 0 && a->mon_on)
				cli_conf_add_error(a->cfg, line,
						       "lru-sort on: DAMON monitoring is on and stays on (add 'monitor off'): Linux 6.1 runs one DAMON user at a time");
			if (a->lru_on && lru_en != 0 && mon == 1)
				cli_conf_add_error(a->cfg, line,
						       "monitor on: damon_lru_sort is on and stays on (make it 'lru-sort off'): Linux 6.1 runs one DAMON user at a time");
		}
	} else if (mon == 1) {
		/* the module, if there is one, must not run */
		struct damon_opts o;
		struct damon_module *l = NULL;

		cli_opts(a->c, &o);
		if (!damon_module_read(&o, "lru_sort", &l) && damon_module_enabled(l))
			cli_conf_add_error(a->cfg, cli_conf_line(a->cfg, "monitor"),
					       "monitor on: damon_lru_sort is on (add 'lru-sort off'): Linux 6.1 runs one DAMON user at a time");
		damon_module_free(l);
	}
	return EXIT_OK;
}

/* The file's parts over @k, kdamond @k of the setup to apply. */
static int want_kdamond(struct apply *a, struct damon_kdamond_setup *k)
{
	const struct damon_attrs *at = cli_conf_attrs(a->cfg);
	int mon = cli_conf_monitor(a->cfg);

	if (at)
		k->attrs = *at;
	if (a->has_targets) {
		damon_targets_free(&k->targets);
		k->targets = a->targets;	/* the setup's now */
		memset(&a->targets, 0, sizeof(a->targets));
		a->has_targets = false;
	}
	if (a->has_schemes) {
		struct damos_scheme **s = calloc(a->nr_schemes + 1, sizeof(*s));

		for (size_t i = 0; s && i < a->nr_schemes; i++)
			if (!(s[i] = damos_scheme_dup(a->schemes[i]))) {
				damos_schemes_free(s, i);
				s = NULL;
			}
		if (!s)
			return cli_error(a->c, EXIT_FAIL, "out of memory");
		damos_schemes_free(k->schemes, k->nr_schemes);
		k->schemes = s;
		k->nr_schemes = a->nr_schemes;
	}
	if (mon >= 0)
		k->on = mon == 1;
	return EXIT_OK;
}

/* The file's lru-sort line over the setup's damon_lru_sort. */
static void want_lru_sort(struct apply *a, struct damon_setup *s)
{
	for (size_t i = 0; a->lru && i < s->nr_modules; i++) {
		struct damon_module_setup *m = &s->modules[i];

		if (strcmp(damon_module_name(m->module), "lru_sort"))
			continue;
		damon_module_free(m->module);
		m->module = a->lru;
		m->enable = cli_conf_lru_sort_enable(a->cfg);
		a->lru = NULL;
	}
}

/*
 * Read the setup, put the file's parts (of @nr kdamond sections, or of
 * the one file for kdamond @k when @nr is 0) over it, apply it once: one
 * transaction, in the library's one order, read back before the commit
 * point (damon_setup_apply()).  Only what differs is written
 * (damoctl.conf(5): a second apply of a file changes nothing).
 */
static int commit(struct apply *a, size_t nr, unsigned int k)
{
	struct cli *c = a->c;
	struct damon_setup *s = NULL;
	struct damon_opts o;
	char *script = NULL;
	int err, status = EXIT_OK;

	cli_opts(c, &o);
	err = damon_setup_read(&o, &s);
	if (err)
		return cli_lib_error(c, err);
	if (nr && s->nr_kdamonds != nr) {
		/* a new count makes every kdamond anew, as the kernel makes it */
		struct damon_kdamond_setup *ks = calloc(nr, sizeof(*ks));

		if (!ks) {
			damon_setup_free(s);
			return cli_error(c, EXIT_FAIL, "out of memory");
		}
		for (size_t i = 0; i < s->nr_kdamonds; i++) {
			damon_targets_free(&s->kdamonds[i].targets);
			damos_schemes_free(s->kdamonds[i].schemes,
					   s->kdamonds[i].nr_schemes);
		}
		free(s->kdamonds);
		s->kdamonds = ks;
		s->nr_kdamonds = nr;
		for (size_t i = 0; i < nr; i++)
			damon_attrs_default(&ks[i].attrs);
	} else if (!nr && !a->has_damon) {
		/* the module only: DAMON's setup stays as it is */
	} else if (!nr && k >= s->nr_kdamonds) {
		/* no kdamond yet: kdamond 0 is made (nr_kdamonds 1) */
		struct damon_kdamond_setup *ks = k ? NULL :
			calloc(1, sizeof(*ks));

		if (!ks) {
			damon_setup_free(s);
			return k ? cli_error(c, EXIT_FAIL, "kdamond %u does not exist (%zu there)",
					     k, s->nr_kdamonds) :
				   cli_error(c, EXIT_FAIL, "out of memory");
		}
		damon_attrs_default(&ks->attrs);
		free(s->kdamonds);
		s->kdamonds = ks;
		s->nr_kdamonds = 1;
	}
	s->restart = true;	/* as the file says, whatever runs now */
	for (size_t i = 0; !status && (nr || a->has_damon) && i < (nr ? nr : 1); i++)
		status = want_kdamond(&a[i], &s->kdamonds[nr ? i : k]);
	for (size_t i = 0; !status && i < (nr ? nr : 1); i++)
		want_lru_sort(&a[i], s);
	if (!status) {
		err = damon_setup_apply(&o, s, c->dry_run ? &script : NULL);
		cli_print_script(c, s->iface == DAMON_IFACE_AUTO ? "modules" :
				 damon_iface_name(s->iface), script);
		free(script);
		if (err)
			status = cli_lib_error(c, err);
	}
	damon_setup_free(s);
	return status;
}

/* ---- a file of kdamond sections: the whole sysfs setup ---- */

/* "kdamond N" alone on a line (blanks around): N; else -1. */
static long kdamond_line(const char *l, size_t n)
{
	char word[16], num[16], extra[2];
	char line[64];

	if (n >= sizeof(line))
		return -1;
	memcpy(line, l, n);
	line[n] = '\0';
	if (sscanf(line, " %15s %15s %1s", word, num, extra) != 2 ||
	    strcmp(word, "kdamond") || strspn(num, "0123456789") != strlen(num) ||
	    strlen(num) > 4)
		return -1;
	return strtol(num, NULL, 10);
}

/* Whether @l is a blank or comment line. */
static bool idle_line(const char *l, size_t n)
{
	size_t k = 0;

	while (k < n && (l[k] == ' ' || l[k] == '\t' || l[k] == '\r'))
		k++;
	return k == n || l[k] == '#';
}

struct section {
	size_t from, to;	/* byte offsets of its lines, "kdamond N" included */
	unsigned int line;	/* of "kdamond N" */
};

/*
 * The sections of @buf; 0 if it has none.  A directive before the first
 * or a section out of order is an error (EXIT_USAGE, said).
 */
static int find_sections(struct apply *top, const char *buf, size_t len,
			 struct section **out, size_t *nr)
{
	struct section *s = NULL;
	unsigned int line = 0, first_directive = 0;
	size_t n = 0;

	*out = NULL;
	*nr = 0;
	for (size_t pos = 0; pos < len;) {
		const char *l = buf + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos;
		long k = kdamond_line(l, ll);

		line++;
		if (k >= 0) {
			struct section *ns = realloc(s, (n + 1) * sizeof(*s));

			if (!ns) {
				free(s);
				return cli_error(top->c, EXIT_FAIL, "out of memory");
			}
			s = ns;
			if (n)
				s[n - 1].to = pos;
			if ((size_t)k != n) {
				free(s);
				return cli_error(top->c, EXIT_USAGE,
						 "%s:%u: kdamond %ld: expected kdamond %zu (sections go 0, 1, 2 ... in order)",
						 top->name, line, k, n);
			}
			s[n++] = (struct section){ pos, len, line };
		} else if (!first_directive && !idle_line(l, ll)) {
			first_directive = line;
		}
		pos += ll + (nl ? 1 : 0);
	}
	if (n && first_directive && first_directive < s[0].line) {
		free(s);
		return cli_error(top->c, EXIT_USAGE,
				 "%s:%u: a directive before 'kdamond 0': in a file of kdamond sections every directive is in a section",
				 top->name, first_directive);
	}
	*out = s;
	*nr = n;
	return EXIT_OK;
}

/* @buf with every line outside @sec blank (line numbers kept). */
static char *section_text(const char *buf, size_t len, const struct section *sec)
{
	char *t = malloc(len + 1);

	if (!t)
		return NULL;
	for (size_t i = 0; i < len; i++)
		t[i] = (i >= sec->from && i < sec->to) || buf[i] == '\n' ? buf[i] : ' ';
	/* its own "kdamond N" line is no directive of the conf */
	for (size_t i = sec->from; i < len && buf[i] != '\n'; i++)
		t[i] = ' ';
	t[len] = '\0';
	return t;
}

/*
 * Every kdamond of DAMON's sysfs as the file's sections say, in one
 * transaction: the files checked first (nothing written on an error); if
 * the number of kdamonds changes, every running kdamond stopped and
 * nr_kdamonds written (the kernel makes every kdamond anew); each section
 * written as a file of its own would be; the kdamonds whose section says
 * "monitor on" started last.  A failure anywhere puts back every file, and
 * the transaction starts again the kdamonds that ran (damos_txn_end()).
 */
static int apply_sections(struct apply *top, const char *buf, size_t len,
			  const struct section *sec, size_t nr, bool check_only)
{
	struct cli *c = top->c;
	struct apply *a = calloc(nr, sizeof(*a));
	struct damon_ctx *h = NULL;
	int saved_k = c->kdamond, status = EXIT_OK, err = 0;
	enum damon_iface saved_iface = c->iface;
	unsigned int now = 0;
	size_t nr_errs = 0, nr_lines = 0;

	if (!a)
		return cli_error(c, EXIT_FAIL, "out of memory");
	if (c->iface == DAMON_IFACE_DBGFS) {
		status = cli_error(c, EXIT_USAGE, "%s: kdamond sections are DAMON's sysfs kdamonds, not with --interface dbgfs",
				   top->name);
		goto out;
	}
	c->iface = DAMON_IFACE_SYSFS;
	c->kdamond = 0;
	h = cli_open(c);
	if (!h) {
		status = EXIT_FAIL;
		goto out;
	}
	err = damon_kdamonds_count(h, &now);
	if (err) {
		status = cli_lib_error(c, err);
		goto out;
	}
	/* the file, then the kernel: every error of every section, no write */
	for (size_t i = 0; i < nr; i++) {
		char *t = section_text(buf, len, &sec[i]);

		a[i] = (struct apply){ .c = c, .name = top->name, .has_damon = true,
				       .paths = top->paths, .nr_paths = top->nr_paths };
		if (!t) {
			status = cli_error(c, EXIT_FAIL, "out of memory");
			goto out;
		}
		err = cli_conf_parse(t, len, &a[i].cfg);
		free(t);
		if (!a[i].cfg) {
			status = cli_lib_error(c, err);
			goto out;
		}
		if (cli_conf_line(a[i].cfg, "lru-sort"))
			cli_conf_add_error(a[i].cfg, cli_conf_line(a[i].cfg, "lru-sort"),
					   "lru-sort: damon_lru_sort is no kdamond of sysfs: apply it from a file without kdamond sections");
		if (cli_conf_iface(a[i].cfg) == DAMON_IFACE_DBGFS)
			cli_conf_add_error(a[i].cfg, cli_conf_line(a[i].cfg, "interface"),
					   "interface dbgfs: kdamond sections are DAMON's sysfs kdamonds");
		/* checked against its kdamond, or kdamond 0 for one to be made */
		c->kdamond = i < now ? (int)i : 0;
		a[i].d = cli_open(c);
		if (!a[i].d) {
			status = EXIT_FAIL;
			goto out;
		}
		status = check_live(&a[i]);
		damon_close(a[i].d);
		a[i].d = NULL;
		if (status)
			goto out;
		nr_errs += report_lines(&a[i], &nr_lines);
	}
	if (nr_errs) {
		status = report_end(top, nr_errs, nr_lines);
		goto out;
	}
	if (check_only)
		goto out;

	c->kdamond = 0;
	status = commit(a, nr, 0);
	if (!status)
		cli_note(c, "%s: %zu kdamond%s set", top->name, nr, nr == 1 ? "" : "s");
out:
	c->kdamond = saved_k;
	c->iface = saved_iface;
	for (size_t i = 0; i < nr; i++) {
		damon_close(a[i].d);
		damon_targets_free(&a[i].targets);
		cli_conf_free(a[i].cfg);
	}
	free(a);
	if (h)
		status = cli_close(c, h, status);
	return status;
}

int apply_run(struct cli *c, int argc, char **argv)
{
	bool check_only = argc == 2 && !strcmp(argv[0], "check");
	const char *file = check_only ? argv[1] : argv[0], *name;
	FILE *f;
	char *buf;
	size_t len;
	int err;

	if (argc > 2 || (argc == 2 && !check_only))
		return cli_error(c, EXIT_USAGE, "'%s' after FILE %s (expected [check] FILE)",
				 argv[argc - 1], argv[argc - 2]);
	if (argc != 1 && !check_only)
		return cli_error(c, EXIT_USAGE, "expected [check] FILE");
	/* "apply check" forgot its FILE; a file named check is ./check */
	if (argc == 1 && !strcmp(argv[0], "check"))
		return cli_error(c, EXIT_USAGE,
				 "check: expected FILE after it (a file named check: ./check)");
	name = strcmp(file, "-") ? file : "<stdin>";
	f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f)
		return cli_error(c, EXIT_FAIL, "%s: %s", file, strerror(errno));
	buf = slurp(f, &len);
	err = errno;
	if (f != stdin)
		fclose(f);
	if (!buf)
		return cli_error(c, EXIT_FAIL, "%s: %s", file, strerror(err));
	return cli_apply_text(c, name, buf, len, check_only);
}

/* apply [check] of @len bytes of @buf (freed here), named @name. */
int cli_apply_text(struct cli *c, const char *name, char *buf, size_t len,
		   bool check_only)
{
	struct apply a = { .c = c, .name = name };
	unsigned int k = 0;
	int status, err;

	/* an editor's UTF-8 byte order mark is no part of the text */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		memmove(buf, buf + 3, len -= 3);
	/* what a failed "damo ... > spec.json" leaves: not "nothing to do" */
	if (!len || strspn(buf, " \t\r\n") >= len) {
		free(buf);
		return cli_error(c, EXIT_USAGE, "%s is empty: nothing to apply", a.name);
	}
	if (damo_spec_detect(buf, len)) {
		char *conf;

		status = damo_spec_to_conf(c, a.name, buf, len, &conf,
					   &a.paths, &a.nr_paths);
		free(buf);
		if (status)
			return status;
		buf = conf;
		len = strlen(conf);
	}
	{
		struct section *sec;
		size_t nr_sec;

		status = find_sections(&a, buf, len, &sec, &nr_sec);
		if (status || nr_sec) {
			if (!status)
				status = apply_sections(&a, buf, len, sec, nr_sec, check_only);
			free(sec);
			free(buf);
			damo_spec_paths_free(a.paths, a.nr_paths);
			return status;
		}
	}
	err = cli_conf_parse(buf, len, &a.cfg);
	free(buf);
	if (!a.cfg) {
		damo_spec_paths_free(a.paths, a.nr_paths);
		return cli_lib_error(c, err);
	}
	/* only comments (the shipped /etc/damoctl.conf): fine, but said */
	if (!err && !cli_conf_nr_errors(a.cfg)) {
		const char *const *d = cli_conf_directives();

		while (*d && !cli_conf_line(a.cfg, *d))
			d++;
		if (!*d)
			cli_note(c, "%s has no directive: nothing to apply", a.name);
	}
	if (cli_conf_attrs(a.cfg) || cli_conf_targets(a.cfg) ||
	    cli_conf_monitor(a.cfg) >= 0 ||
	    cli_conf_line(a.cfg, "scheme") ||
	    cli_conf_line(a.cfg, "attrs")) {
		enum damon_iface saved = c->iface;
		bool dry_run = c->dry_run;

		if (c->iface == DAMON_IFACE_AUTO && cli_conf_iface(a.cfg) >= 0)
			c->iface = cli_conf_iface(a.cfg);
		/* check writes nothing, not even the dbgfs probe's context */
		c->dry_run |= check_only;
		/* a file already bad needs no other error */
		a.d = err ? cli_open_quiet(c) : cli_open(c);
		c->iface = saved;
		c->dry_run = dry_run;
		if (!a.d && !err) {
			status = EXIT_FAIL;
			goto out;
		}
	}
	/* the live checks add their errors to those of the file */
	status = check_live(&a);
	if (!status && cli_conf_nr_errors(a.cfg))
		status = report(&a);
	if (a.d) {
		a.has_damon = true;
		k = damon_get_iface(a.d) == DAMON_IFACE_SYSFS ? (unsigned int)c->kdamond : 0;
		status = cli_close(c, a.d, status);
		a.d = NULL;
	}
	if (!status && !check_only) {
		enum damon_iface saved = c->iface;

		if (c->iface == DAMON_IFACE_AUTO && cli_conf_iface(a.cfg) >= 0)
			c->iface = cli_conf_iface(a.cfg);
		status = commit(&a, 0, k);
		c->iface = saved;
	}
out:
	if (a.d)
		damon_close(a.d);
	damon_module_free(a.lru);
	damon_targets_free(&a.targets);
	cli_conf_free(a.cfg);
	damo_spec_paths_free(a.paths, a.nr_paths);
	return status;
}
