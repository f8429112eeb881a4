// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "damoctl --complete -- WORD... CURRENT": the words that may replace
 * CURRENT, one a line, for the bash completion (cli/damoctl.bash-completion).
 * The candidates come from cli_complete_words(), i.e. from the command
 * tables and the action table, as in the shell, and the options from
 * cli_options[], the table the option parser reads.  A line "@files" asks the
 * caller to complete file names as well.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
 * to @out what grammar @gr lets come next.
 */
void cli_complete_grammar(const struct cli_grammar *gr, int argc, char **argv,
			  const char **out, int *n)
{
	const struct kw_spec *g = gr->kws, *sp = NULL, *quota = NULL;
	int i = 0;

	if (gr->actions_first || gr->first) {
		if (argc == 0) {
			for (int a = 0; gr->actions_first && a < DAMOS_NR_ACTIONS; a++)
				add(out, n, damos_action_name(a));
			for (const char *const *f = gr->first; f && *f; f++)
				add(out, n, *f);
			return;
		}
		i = 1;
	}
	while (i < argc) {
		sp = spec_find(g, argv[i]);
		if (quota && in_list(quota->sub, argv[i])) {
			if (i + 1 == argc)	/* the value of a quota word */
				return;
			i += 2;
			continue;
		}
		quota = NULL;
		if (!sp)
			return;	/* not the grammar: nothing to offer */
		if (sp->sub) {
			quota = sp;
			i++;
			continue;
		}
		if (i + sp->nr >= argc) {	/* completing a value */
			if (sp->values && (i + 1 == argc || sp->every))
				for (const char *const *v = sp->values; *v; v++)
					add(out, n, *v);
			return;
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
	/* target set: only vaddr has pids (damon_targets_parse()) */
	bool no_pid = gr->first && strcmp(argv[0], "vaddr");
	/* and only paddr has a node */
	bool no_node = gr->first && strcmp(argv[0], "paddr");

	for (; g->kw; g++) {
		bool used = (no_pid && !strcmp(g->kw, "pid")) ||
			    (no_node && !strcmp(g->kw, "node"));

		for (int j = 0; !gr->repeat && j < argc; j++)
			used |= !strcmp(argv[j], g->kw);
		if (!used)
			add(out, n, g->kw);
	}
}

/*
 * The indexes of the schemes there are (scheme rm), read with @c's options
 * as scheme list reads them: in a dry-run session, with what the session's
 * commands would have done.  Errors offer nothing.
 */
int cli_complete_indexes(struct cli *c, const char **out, int room)
{
	static char words[64][4];
	struct damos_scheme **arr;
	struct damon_ctx *d = cli_open_quiet(c);
	size_t n = 0;

	if (!d)
		return 0;
	if (!damos_schemes_read(d, &arr, &n))
		damos_schemes_free(arr, n);
	else
		n = 0;
	damon_close(d);
	if (room > (int)ARRAY_SIZE(words))
		room = ARRAY_SIZE(words);
	for (size_t i = 0; i < n && (int)i < room; i++) {
		snprintf(words[i], sizeof(words[i]), "%zu", i);
		out[i] = words[i];
	}
	return n < (size_t)room ? (int)n : room;
}

/* An option that takes a value, long or short, or NULL. */
static const struct cli_option *takes_value(const char *word)
{
	const struct cli_option *g = cli_option_find(word);

	return g && g->arg ? g : NULL;
}

static void put(FILE *f, const char *w, const char *cur)
{
	if (!strncmp(w, cur, strlen(cur)))
		fprintf(f, "%s\n", w);
}

/* What may be the value of option @g: its words, or files. */
static void put_values(FILE *f, const struct cli_option *g, const char *prefix,
		       const char *cur)
{
	if (g->arg_kind == CLI_ARG_FILE) {
		fprintf(f, "@files\n");
		return;
	}
	for (const char *w = g->arg; g->arg_kind == CLI_ARG_CHOICE && *w;) {
		size_t len = strcspn(w, "|");
		char word[64];

		snprintf(word, sizeof(word), "%s%.*s", prefix, (int)len, w);
		put(f, word, cur);
		w += len + (w[len] == '|');
	}
}

int cli_complete_print(int argc, char **argv, FILE *f)
{
	const char *cur = argc ? argv[argc - 1] : "";
	const char **words;
	int i = 0;

	bool batch = false;

	argc = argc ? argc - 1 : 0;
	/* the global options before the object; --opt=VALUE is one word */
	while (i < argc && argv[i][0] == '-') {
		batch |= !strcmp(argv[i], "-f") || !strcmp(argv[i], "--file") ||
			 !strncmp(argv[i], "--file=", 7);
		i += takes_value(argv[i]) && !strchr(argv[i], '=') ? 2 : 1;
	}
	/* --interface=<TAB>, --root=<TAB> */
	if (i == argc && !strncmp(cur, "--", 2) && strchr(cur, '=')) {
		char name[64];		/* "--NAME", then "--NAME=" */
		const struct cli_option *g;

		snprintf(name, sizeof(name) - 1, "%.*s",
			 (int)(strchr(cur, '=') - cur), cur);
		g = takes_value(name);
		if (g) {
			strcat(name, "=");
			put_values(f, g, name, cur);
		}
		return EXIT_OK;
	}
	/* -f FILE runs the file: no command follows */
	if (batch && i <= argc) {
		if (i == argc && cur[0] == '-')
			put(f, "--force", cur);
		return EXIT_OK;
	}
	if (i > argc) {		/* completing an option's value */
		put_values(f, takes_value(argv[argc - 1]), "", cur);
		return EXIT_OK;
	}
	if (i == argc && cur[0] == '-') {
		for (const struct cli_option *g = cli_options; g->name; g++) {
			char word[64];

			snprintf(word, sizeof(word), "--%s", g->name);
			put(f, word, cur);
		}
		return EXIT_OK;
	}
	/* the global options typed, for what is read (scheme indexes) */
	struct cli c;
	char **gargv = calloc(i + 2, sizeof(*gargv));
	FILE *null = fopen("/dev/null", "w");
	int next, parsed = -1;

	cli_init(&c);
	if (gargv && null) {
		c.out = c.err = null;
		gargv[0] = "damoctl";
		memcpy(gargv + 1, argv, i * sizeof(*gargv));
		parsed = cli_parse_globals(&c, i + 1, gargv, &next);
	}
	words = cli_complete_words(parsed ? NULL : &c, argc - i, argv + i);
	for (const char **w = words; w && *w; w++)
		put(f, *w, cur);
	free(words);
	cli_fini(&c);
	if (null)
		fclose(null);
	free(gargv);
	/* apply FILE, record FILE, and the value of --output, --data, --input */
	if ((argc - i >= 1 && !strcmp(argv[i], "apply")) ||
	    (argc - i == 1 && !strcmp(argv[i], "record")) ||
	    (argc - i >= 3 && (!strcmp(argv[argc - 1], "--output") ||
			       !strcmp(argv[argc - 1], "--data") ||
			       !strcmp(argv[argc - 1], "--input"))))
		fprintf(f, "@files\n");
	return EXIT_OK;
}
