// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "damoctl --complete -- WORD... CURRENT": the words that may replace
 * CURRENT, one a line, for the bash completion (cli/damoctl.bash-completion).
 * The candidates come from cli_complete_words(), i.e. from the command
 * tables and the action table, as in the shell.  A line "@files" asks the
 * caller to complete file names as well.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * The keyword grammars, for completing a value or the keywords not used
 * yet.  Each keyword takes @nr values; @values are the fixed words its
 * first value may be; @sub are the sub-keywords it takes (quota), each with
 * one value.  tests/host/complete.bats checks these against the commands'
 * keyword lists and the library's.
 */
struct kw_spec {
	const char *kw;
	int nr;
	const char *const *values;
	const char *const *sub;
};

static const char *const min_max[] = { "min", "max", NULL };
static const char *const metrics[] = { "none", "free_mem_rate", NULL };
static const char *const scheme_quota[] = { "time", "size", "reset", NULL };
static const char *const lru_quota[] = { "time", "reset", NULL };
static const char *const ops[] = { "paddr", "vaddr", "fvaddr", NULL };

static const struct kw_spec scheme_grammar[] = {
	{ "sz", 2, min_max }, { "access", 2, min_max }, { "age", 2, min_max },
	{ "quota", 0, NULL, scheme_quota }, { "weights", 3 },
	{ "wmarks", 5, metrics }, { NULL },
};

static const struct kw_spec attrs_grammar[] = {
	{ "sample", 1 }, { "aggr", 1 }, { "update", 1 }, { "regions", 2 },
	{ NULL },
};

static const struct kw_spec lru_sort_grammar[] = {
	{ "hot", 1 }, { "cold", 1 }, { "quota", 0, NULL, lru_quota },
	{ "wmarks", 4 }, { "sample", 1 }, { "aggr", 1 }, { "regions", 2 },
	{ "region", 2 }, { NULL },
};

static const struct kw_spec target_grammar[] = {
	{ "pid", 1 }, { "region", 2 }, { NULL },
};

static const struct {
	const char *object, *command;
	const struct kw_spec *grammar;
	const char *const *first;	/* the fixed word before the keywords */
	bool repeat;			/* keywords may come again */
} grammars[] = {
	{ "scheme", "add", scheme_grammar, NULL },
	{ "scheme", "encode", scheme_grammar, NULL },
	{ "attrs", "set", attrs_grammar },
	{ "lru-sort", "set", lru_sort_grammar },
	{ "lru-sort", "enable", lru_sort_grammar },
	{ "target", "set", target_grammar, ops, true },
};

static const struct kw_spec *spec_find(const struct kw_spec *g, const char *w)
{
	for (; g->kw; g++)
		if (!strcmp(g->kw, w))
			return g;
	return NULL;
}

static bool in_list(const char *const *l, const char *w)
{
	for (; l && *l; l++)
		if (!strcmp(*l, w))
			return true;
	return false;
}

static void add(const char **out, int *n, const char *w)
{
	if (*n < 63)
		out[(*n)++] = w;
}

/*
 * The words after "OBJECT COMMAND" typed so far are @argv[0..argc-1]: add
 * to @out what may come next.  Returns false if @o/@k has no grammar here.
 */
bool cli_complete_grammar(const char *object, const char *command, int argc,
			  char **argv, const char **out, int *n)
{
	const struct kw_spec *g = NULL, *sp = NULL, *quota = NULL;
	const char *const *first = NULL;
	bool repeat = false;
	int i = 0;

	for (size_t j = 0; j < ARRAY_SIZE(grammars); j++)
		if (!strcmp(grammars[j].object, object) &&
		    !strcmp(grammars[j].command, command)) {
			g = grammars[j].grammar;
			first = grammars[j].first;
			repeat = grammars[j].repeat;
		}
	if (!g)
		return false;
	if (!strcmp(object, "scheme")) {
		if (argc == 0) {
			for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
				add(out, n, damos_action_name(a));
			return true;
		}
		i = 1;		/* the action */
	} else if (first) {
		if (argc == 0) {
			for (; *first; first++)
				add(out, n, *first);
			return true;
		}
		i = 1;
	}
	while (i < argc) {
		sp = spec_find(g, argv[i]);
		if (quota && in_list(quota->sub, argv[i])) {
			if (i + 1 == argc)	/* the value of a quota word */
				return true;
			i += 2;
			continue;
		}
		quota = NULL;
		if (!sp)
			return true;	/* not the grammar: nothing to offer */
		if (sp->sub) {
			quota = sp;
			i++;
			continue;
		}
		if (i + sp->nr >= argc) {	/* completing a value */
			if (i + 1 == argc && sp->values)
				for (const char *const *v = sp->values; *v; v++)
					add(out, n, *v);
			else if (sp->values == min_max)
				for (const char *const *v = min_max; *v; v++)
					add(out, n, *v);
			return true;
		}
		i += 1 + sp->nr;
	}
	if (quota)
		for (const char *const *q = quota->sub; *q; q++) {
			bool used = false;

			for (int j = 1; j < argc; j++)
				used |= !strcmp(argv[j], *q);
			if (!used)
				add(out, n, *q);
		}
	for (; g->kw; g++) {
		bool used = false;

		for (int j = 0; !repeat && j < argc; j++)
			used |= !strcmp(argv[j], g->kw);
		if (!used)
			add(out, n, g->kw);
	}
	return true;
}

static const char *const global_opts[] = {
	"--interface", "--root", "--dry-run", "--json", "--kdamond",
	"--context", "--file", "--force", "--version", "--help", NULL,
};

/* Options that take a value, long and short. */
static bool takes_value(const char *o)
{
	static const char *const with_value[] = {
		"--interface", "-i", "--root", "-r", "--kdamond", "-k",
		"--context", "-c", "--file", "-f", NULL,
	};

	for (const char *const *w = with_value; *w; w++)
		if (!strcmp(o, *w))
			return true;
	return false;
}

static void put(FILE *f, const char *w, const char *cur)
{
	if (!strncmp(w, cur, strlen(cur)))
		fprintf(f, "%s\n", w);
}

int cli_complete_print(int argc, char **argv, FILE *f)
{
	const char *cur = argc ? argv[argc - 1] : "";
	const char **words;
	int i = 0;

	argc = argc ? argc - 1 : 0;
	/* the global options before the object */
	while (i < argc && argv[i][0] == '-')
		i += takes_value(argv[i]) ? 2 : 1;
	if (i > argc) {		/* completing an option's value */
		const char *o = argv[argc - 1];

		if (!strcmp(o, "--interface") || !strcmp(o, "-i")) {
			for (int k = 0; k <= DAMOS_IFACE_DBGFS; k++)
				put(f, damos_iface_name(k), cur);
		} else if (strcmp(o, "--kdamond") && strcmp(o, "-k") &&
			   strcmp(o, "--context") && strcmp(o, "-c")) {
			fprintf(f, "@files\n");
		}
		return EXIT_OK;
	}
	if (i == argc && cur[0] == '-') {
		for (const char *const *o = global_opts; *o; o++)
			put(f, *o, cur);
		return EXIT_OK;
	}
	words = cli_complete_words(argc - i, argv + i);
	for (const char **w = words; w && *w; w++)
		put(f, *w, cur);
	free(words);
	if (argc - i >= 1 && !strcmp(argv[i], "apply"))
		fprintf(f, "@files\n");
	return EXIT_OK;
}
