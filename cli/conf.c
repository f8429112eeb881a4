// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * damoctl.conf(5): a whole DAMON setup in the grammar of damoctl's
 * commands, parsed from a buffer (never a path: callers and fuzzers own the
 * I/O).  Every bad line is recorded with its number; nothing stops at the
 * first one.  damoctl's, not libdamos': the file's grammar and the word
 * splitting of command lines are the tool's (libdamos exports the DAMON
 * model only); what it needs of the library is public API.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

struct cfg_scheme {
	unsigned int line;
	int argc;
	char **argv;
	struct damos_scheme *s;
	char *err;		/* why it does not convert (again each time) */
};

struct cfg_error {
	unsigned int line;
	char *msg;
};

enum { D_INTERFACE, D_ATTRS, D_TARGET, D_SCHEME, D_MONITOR, D_LRU_SORT, D_NR };

struct cli_conf {
	int iface;			/* -1: not given */
	bool has_attrs;
	struct damon_attrs attrs;
	bool has_targets;
	struct damon_targets targets;
	bool schemes_none;		/* with no scheme line: "scheme none" */
	size_t nr_schemes;
	struct cfg_scheme *schemes;
	struct damos_scheme **scheme_arr;
	int monitor;			/* -1, 0, 1 */
	struct damon_module *lru;	/* NULL: no lru-sort line */
	int lru_enable;			/* -1, 0, 1 */
	unsigned int lines[D_NR];	/* where each directive was, 0: absent */
	size_t nr_errors;
	struct cfg_error *errors;	/* of the lines, schemes' excepted */
	size_t nr_all;
	struct cfg_error *all;		/* those and the schemes', by line */
};

static const char *const directives[] = {
	"interface", "attrs", "target", "scheme", "monitor", "lru-sort", NULL,
};

const char *const *cli_conf_directives(void)
{
	return directives;
}

/* Record "LINE: msg" (the library's last message if @fmt is NULL). */
static int add_error(struct cli_conf *c, unsigned int line,
		     const char *fmt, ...)
{
	struct cfg_error *e;
	char *msg;
	va_list ap;
	int n;

	if (fmt) {
		va_start(ap, fmt);
		n = vasprintf(&msg, fmt, ap);
		va_end(ap);
	} else {
		n = asprintf(&msg, "%s", damos_errmsg());
	}
	if (n < 0)
		return -ENOMEM;
	e = realloc(c->errors, (c->nr_errors + 1) * sizeof(*e));
	if (!e) {
		free(msg);
		return -ENOMEM;
	}
	c->errors = e;
	e[c->nr_errors].line = line;
	e[c->nr_errors++].msg = msg;
	return 0;
}

int cli_words_split(const char *line, int *argc, char ***argv)
{
	char **v = NULL, *w;
	int n = 0;

	*argc = 0;
	*argv = NULL;
	w = malloc(strlen(line) + 1);
	if (!w)
		return -ENOMEM;
	for (const char *p = line;;) {
		size_t len = 0;
		char q = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		while (*p && (q || !isspace((unsigned char)*p))) {
			if (!q && (*p == '\'' || *p == '"'))
				q = *p;
			else if (q && *p == q)
				q = 0;
			else if (q == '"' && *p == '\\' && p[1])
				w[len++] = *++p;
			else
				w[len++] = *p;
			p++;
		}
		if (q) {
			free(w);
			cli_words_free(n, v);
			return -EINVAL;
		}
		char **nv = realloc(v, (n + 2) * sizeof(*v));

		if (!nv || !(nv[n] = strndup(w, len))) {
			free(w);
			cli_words_free(n, nv ? nv : v);
			return -ENOMEM;
		}
		v = nv;
		v[++n] = NULL;
	}
	free(w);
	*argc = n;
	*argv = v;
	return 0;
}

void cli_words_free(int argc, char **argv)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
}

static int once(struct cli_conf *c, int dir, unsigned int line)
{
	if (c->lines[dir])
		return add_error(c, line, "%s given twice (first on line %u)",
				 directives[dir], c->lines[dir]);
	c->lines[dir] = line;
	return 1;
}

static int on_off(const char *w)
{
	if (!strcmp(w, "on"))
		return 1;
	if (!strcmp(w, "off"))
		return 0;
	return -1;
}

/* One directive; errors are recorded, only -ENOMEM is returned. */
static int directive(struct cli_conf *c, unsigned int line, int argc,
		     char **argv)
{
	const char *const *args = (const char *const *)argv + 1;
	int nargs = argc - 1, d, r;

	for (d = 0; directives[d]; d++)
		if (!strcmp(argv[0], directives[d]))
			break;
	if (!directives[d]) {
		char list[128] = "";

		for (d = 0; directives[d]; d++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", d ? " " : "", directives[d]);
		return add_error(c, line, "unknown directive '%s' (expected %s)",
				 argv[0], list);
	}
	if (d != D_SCHEME && (r = once(c, d, line)) <= 0)
		return r;
	switch (d) {
	case D_INTERFACE:
		r = nargs == 1 ? damon_iface_from_name(args[0]) : -EINVAL;
		if (r < 0)
			return add_error(c, line, "interface: expected auto, sysfs or dbgfs");
		c->iface = r;
		return 0;
	case D_ATTRS:
		damon_attrs_default(&c->attrs);
		/* on failure schemes convert with the defaults, not these */
		if (damon_attrs_parse(&c->attrs, nargs, args))
			return add_error(c, line, "attrs: %s", damos_errmsg());
		c->has_attrs = true;
		return 0;
	case D_TARGET:
		c->has_targets = true;
		if (damon_targets_parse(&c->targets, nargs, args))
			return add_error(c, line, "target: %s", damos_errmsg());
		return 0;
	case D_MONITOR:
		c->monitor = nargs == 1 ? on_off(args[0]) : -1;
		if (c->monitor < 0)
			return add_error(c, line, "monitor: expected on or off");
		return 0;
	case D_LRU_SORT:
		c->lru = damon_module_new("lru_sort");
		if (!c->lru)
			return -ENOMEM;
		if (nargs && on_off(args[0]) >= 0) {
			c->lru_enable = on_off(args[0]);
			args++;
			nargs--;
		}
		if (!nargs && c->lru_enable < 0)
			return add_error(c, line, "lru-sort: expected on, off and/or keywords");
		if (damon_module_parse(c->lru, nargs, args))
			return add_error(c, line, "lru-sort: %s", damos_errmsg());
		return 0;
	}
	/* scheme ACTION [KEYWORDS] | scheme none */
	if (!c->lines[D_SCHEME])
		c->lines[D_SCHEME] = line;
	if (nargs == 1 && !strcmp(args[0], "none")) {
		if (c->schemes_none || c->nr_schemes)
			return add_error(c, line, "scheme none: there are schemes (line %u)",
					 c->lines[D_SCHEME]);
		c->schemes_none = true;
		return 0;
	}
	if (c->schemes_none)
		return add_error(c, line, "scheme: 'scheme none' came first (line %u)",
				 c->lines[D_SCHEME]);
	if (!nargs)
		return add_error(c, line, "scheme: expected an action or none");
	struct cfg_scheme *s = realloc(c->schemes, (c->nr_schemes + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	c->schemes = s;
	s = &s[c->nr_schemes++];
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->argc = nargs;
	s->argv = calloc(nargs + 1, sizeof(char *));
	if (!s->argv)
		return -ENOMEM;
	for (int i = 0; i < nargs; i++) {
		s->argv[i] = strdup(args[i]);
		if (!s->argv[i])
			return -ENOMEM;
	}
	return 0;
}

/* Convert the schemes with @a; each keeps why it does not convert. */
static int resolve(struct cli_conf *c, const struct damon_attrs *a)
{
	for (size_t i = 0; i < c->nr_schemes; i++) {
		struct cfg_scheme *s = &c->schemes[i];

		damos_scheme_free(s->s);
		free(s->err);
		s->err = NULL;
		s->s = damos_scheme_parse(s->argc, (const char *const *)s->argv, a);
		if (!s->s && errno == ENOMEM)
			return -ENOMEM;
		if (!s->s && asprintf(&s->err, "scheme: %s", damos_errmsg()) < 0) {
			s->err = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

static int cmp_errors(const void *a, const void *b)
{
	const struct cfg_error *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/* All errors by line (a stable merge: a line's errors in their order). */
static int finish(struct cli_conf *c)
{
	size_t n = c->nr_errors;
	struct cfg_error *all;

	for (size_t i = 0; i < c->nr_schemes; i++)
		n += c->schemes[i].err != NULL;
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < c->nr_errors; i++)
		all[n++] = c->errors[i];
	for (size_t i = 0; i < c->nr_schemes; i++)
		if (c->schemes[i].err) {
			all[n].line = c->schemes[i].line;
			all[n++].msg = c->schemes[i].err;
		}
	/* qsort is not stable: insertion sort, the lists are short */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cmp_errors(&all[j - 1], &all[j]) > 0; j--) {
			struct cfg_error t = all[j];

			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	free(c->all);
	c->all = all;
	c->nr_all = n;
	return n ? -EINVAL : 0;
}

/* "pageout, lru_prio, ... and stat": the table's actions for @o. */
static const char *ops_actions(enum damon_ops o)
{
	static __thread char buf[256];
	size_t n = 0, nr = 0, k = 0;

	for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
		nr += damon_ops_supports(o, a);
	buf[0] = '\0';
	for (int a = 0; a < DAMOS_NR_ACTIONS && n < sizeof(buf); a++) {
		if (!damon_ops_supports(o, a))
			continue;
		k++;
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
			      k == 1 ? "" : k == nr ? " and " : ", ",
			      damos_action_name(a));
	}
	return buf;
}

static int check_ops(struct cli_conf *c, enum damon_ops o)
{
	int err = 0;

	for (size_t i = 0; !err && i < c->nr_schemes; i++) {
		const struct damos_scheme *s = c->schemes[i].s;

		if (s && !damon_ops_supports(o, damos_scheme_action(s)))
			err = add_error(c, c->schemes[i].line,
					"scheme: %s does nothing on %s targets (Linux 6.1 applies %s there)",
					damos_scheme_action_name(s),
					damon_ops_name(o), ops_actions(o));
	}
	return err;
}

int cli_conf_check_ops(struct cli_conf *c, enum damon_ops o)
{
	int err = check_ops(c, o);

	return err ? err : finish(c);
}

/* Cross-directive rules that need nothing from the kernel. */
static int check(struct cli_conf *c)
{
	if (c->monitor == 1 && c->lru && c->lru_enable == 1)
		return add_error(c, c->lines[D_LRU_SORT],
				 "lru-sort on and monitor on (line %u): Linux 6.1 runs one DAMON user at a time",
				 c->lines[D_MONITOR]);
	return 0;
}

int cli_line_append(char **cmd, size_t *len, const char *part, size_t n)
{
	char *nc = realloc(*cmd, *len + n + 2);

	if (!nc)
		return -ENOMEM;
	*cmd = nc;
	memcpy(nc + *len, part, n);
	*len += n;
	nc[(*len)++] = ' ';
	nc[*len] = '\0';
	return 0;
}

int cli_conf_parse(const char *buf, size_t len, struct cli_conf **out)
{
	struct cli_conf *c = calloc(1, sizeof(*c));
	struct damon_attrs def;
	char *cmd = NULL;
	size_t cmd_len = 0;
	unsigned int nr = 0, first = 0;
	int err = 0;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->iface = -1;
	c->monitor = -1;
	c->lru_enable = -1;
	for (size_t pos = 0; !err && pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		const char *l = buf + pos;
		bool more;

		pos += n + (nl ? 1 : 0);
		nr++;
		if (n && l[n - 1] == '\r')
			n--;
		if (!cmd_len)
			first = nr;
		if (memchr(l, '\0', n)) {
			err = add_error(c, nr, "a NUL byte");
			cmd_len = 0;
			continue;
		}
		more = n && l[n - 1] == '\\';
		if (more)
			n--;
		err = cli_line_append(&cmd, &cmd_len, l, n);
		if (err)
			break;
		if (more && pos < len)
			continue;
		cmd_len = 0;

		int argc;
		char **argv;

		err = cli_words_split(cmd, &argc, &argv);
		if (err == -EINVAL) {
			err = add_error(c, first, "unterminated quote");
			continue;
		}
		if (!err && argc)
			err = directive(c, first, argc, argv);
		cli_words_free(argc, argv);
	}
	free(cmd);
	if (!err) {
		damon_attrs_default(&def);
		err = resolve(c, c->has_attrs ? &c->attrs : &def);
	}
	if (!err)
		err = check(c);
	if (!err && c->has_targets && c->targets.nr)
		err = check_ops(c, c->targets.ops);
	if (err) {
		cli_conf_free(c);
		return err;
	}
	*out = c;
	return finish(c);
}

void cli_conf_free(struct cli_conf *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_schemes; i++) {
		cli_words_free(c->schemes[i].argc, c->schemes[i].argv);
		damos_scheme_free(c->schemes[i].s);
		free(c->schemes[i].err);
	}
	free(c->all);
	free(c->schemes);
	free(c->scheme_arr);
	damon_targets_free(&c->targets);
	damon_module_free(c->lru);
	for (size_t i = 0; i < c->nr_errors; i++)
		free(c->errors[i].msg);
	free(c->errors);
	free(c);
}

size_t cli_conf_nr_errors(const struct cli_conf *c)
{
	return c->nr_all;
}

const char *cli_conf_error(const struct cli_conf *c, size_t i,
			       unsigned int *line)
{
	if (i >= c->nr_all) {
		errno = EINVAL;
		return NULL;
	}
	if (line)
		*line = c->all[i].line;
	return c->all[i].msg;
}

int cli_conf_add_error(struct cli_conf *c, unsigned int line,
			   const char *msg)
{
	int err = add_error(c, line, "%s", msg);

	return err ? err : finish(c);
}

unsigned int cli_conf_line(const struct cli_conf *c,
			       const char *directive)
{
	for (int d = 0; directives[d]; d++)
		if (!strcmp(directive, directives[d]))
			return c->lines[d];
	return 0;
}

int cli_conf_iface(const struct cli_conf *c)
{
	return c->iface;
}

const struct damon_attrs *cli_conf_attrs(const struct cli_conf *c)
{
	return c->has_attrs ? &c->attrs : NULL;
}

const struct damon_targets *cli_conf_targets(const struct cli_conf *c)
{
	return c->has_targets ? &c->targets : NULL;
}

int cli_conf_schemes(struct cli_conf *c,
			 const struct damon_attrs *live,
			 struct damos_scheme *const **s, size_t *n)
{
	static struct damos_scheme *const none[1];
	int err;

	if (!c->schemes_none && !c->nr_schemes)
		return -ENOENT;
	if (!c->has_attrs && live) {
		err = resolve(c, live);
		if (err)
			return err;
	}
	err = finish(c);
	if (err)
		return err;
	if (c->schemes_none) {
		*s = none;
		*n = 0;
		return 0;
	}
	/* the array of schemes, in file order, owned by @c */
	struct damos_scheme **arr = malloc(c->nr_schemes * sizeof(*arr));

	if (!arr)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_schemes; i++)
		arr[i] = c->schemes[i].s;
	free(c->scheme_arr);
	c->scheme_arr = arr;
	*s = arr;
	*n = c->nr_schemes;
	return 0;
}

unsigned int cli_conf_scheme_line(const struct cli_conf *c, size_t i)
{
	return i < c->nr_schemes ? c->schemes[i].line : 0;
}

int cli_conf_monitor(const struct cli_conf *c)
{
	return c->monitor;
}

const struct damon_module *cli_conf_lru_sort(const struct cli_conf *c)
{
	return c->lru;
}

int cli_conf_lru_sort_enable(const struct cli_conf *c)
{
	return c->lru_enable;
}
