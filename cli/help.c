// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --help, help [OBJECT [COMMAND]] and the shell's help, from the command
 * tables, the keyword grammars and the action table.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "damoctl OBJECT COMMAND ARGS", as --help, help and damoctl(8) show it. */
static void synopsis(FILE *f, const struct cli_object *o,
		     const struct cli_cmd *k)
{
	fprintf(f, "damoctl %s %s%s%s%s", o->name, k->name,
		*k->args ? " " : "", k->args,
		k->flags & CLI_WATCH ? " [--watch SECONDS [--count N]]" : "");
}

void cli_usage(FILE *f)
{
	fprintf(f,
		"Usage: damoctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"       damoctl [OPTIONS] help [OBJECT [COMMAND]]\n"
		"       damoctl [OPTIONS] -f FILE|- [--force]\n"
		"       damoctl [OPTIONS]      (on a terminal: the interactive shell)\n"
		"\n"
		"Options:\n");
	for (const struct cli_option *g = cli_options; g->name; g++) {
		char words[64], letter[8] = "    ";

		if (!g->no_short)
			snprintf(letter, sizeof(letter), "-%c, ", g->val);
		snprintf(words, sizeof(words), "%s--%s%s%s", letter, g->name,
			 g->arg ? " " : "", g->arg ? g->arg : "");
		fprintf(f, "  %-20s  %s\n", words, g->help);
	}
	fprintf(f, "\nObjects and commands:\n");
	for (const struct cli_object *o = cli_objects; o->name; o++) {
		if (o->run)
			fprintf(f, "  damoctl %s %s\n", o->name, o->run_args);
		for (const struct cli_cmd *k = o->cmds; k->name; k++) {
			fprintf(f, "  ");
			synopsis(f, o, k);
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\nExit status: 0 ok, 1 failure, 2 usage error, 3 a failed write not undone,\n"
		"128+N signal N came while writing (held until the command ended).\n");
}

/* In the shell: the commands without "damoctl", no command-line options. */
static void shell_usage(FILE *f)
{
	fprintf(f, "Objects and commands (as on damoctl's command line, without \"damoctl\"):\n");
	for (const struct cli_object *o = cli_objects; o->name; o++) {
		if (o->run)
			fprintf(f, "  %s %s\n", o->name, o->run_args);
		for (const struct cli_cmd *k = o->cmds; k->name; k++)
			fprintf(f, "  %s %s%s%s%s\n", o->name, k->name,
				*k->args ? " " : "", k->args,
				k->flags & CLI_WATCH ? " [--watch SECONDS [--count N]]" : "");
	}
}

/* "  WORDS  HELP", HELP wrapped in its column (from the next line if WORDS are long). */
static void help_row(FILE *f, const char *words, const char *help)
{
	int col = fprintf(f, "  %-22s", words);

	if (col > 24) {
		fprintf(f, "\n");
		col = 0;
	}
	while (*help) {
		int len = strcspn(help, " ");

		if (col > 25 && col + 1 + len > 78) {
			fprintf(f, "\n");
			col = 0;
		}
		col += fprintf(f, "%*s%.*s", col ? 1 : 25, "", len, help);
		help += len + (help[len] == ' ');
	}
	fprintf(f, "\n");
}

static void help_grammar(FILE *f, const struct cli_grammar *g)
{
	char words[128] = "";
	size_t n = 0;

	fprintf(f, "\n");
	if (g->actions_first) {
		for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
			n += snprintf(words + n, sizeof(words) - n, "%s%s",
				      a ? " " : "", damos_action_name(a));
		fprintf(f, "  ACTION: %s\n  (damoctl help scheme says what each does)\n",
			words);
	}
	n = 0;
	for (const char *const *w = g->first; w && *w; w++)
		n += snprintf(words + n, sizeof(words) - n, "%s%s",
			      n ? "|" : "", *w);
	/* an empty list of first words: the command's index (scheme set) */
	if (g->first)
		help_row(f, n ? words : "INDEX", g->first_help);
	for (const struct kw_spec *w = g->kws; w->kw; w++) {
		snprintf(words, sizeof(words), "%s %s", w->kw, w->args);
		help_row(f, words, w->help);
	}
}

static void help_command(FILE *f, const struct cli_object *o,
			 const struct cli_cmd *k)
{
	synopsis(f, o, k);
	fprintf(f, "\n    %s\n", k->help);
	if (k->flags & CLI_WATCH)
		fprintf(f, "    --watch SECONDS: print it again every SECONDS (times take units:\n"
			"    500ms, 2s), in place on a terminal, until Ctrl-C or --count N times\n");
	if (k->grammar)
		help_grammar(f, k->grammar);
}

static void help_object(FILE *f, const struct cli_object *o)
{
	fprintf(f, "damoctl %s: %s\n\n", o->name, o->help);
	if (o->run)
		fprintf(f, "  damoctl %s %s\n", o->name, o->run_args);
	if (o->run == record_run)
		help_grammar(f, &record_grammar);
	for (const struct cli_cmd *k = o->cmds; k->name; k++) {
		fprintf(f, "  ");
		synopsis(f, o, k);
		fprintf(f, "\n      %s\n", k->help);
	}
	if (!strcmp(o->name, "scheme")) {
		fprintf(f, "\nActions:\n");
		for (int a = 0; a < DAMOS_NR_ACTIONS; a++)
			fprintf(f, "  %-11s %s\n", damos_action_name(a),
				damos_action_desc(a));
		fprintf(f,
			"\nValues: sizes 4K 2M 1G (B K M G T), times us ms s m h,\n"
			"access rates N%% of the samples per aggregation interval,\n"
			"min/max (the field's bounds); a bare number is the kernel's unit.\n");
	}
}

/*
 * The usage (@o NULL), an object's help or a command's (@k), on c->out;
 * with --json as {"help": TEXT}, so that every output parses.
 */
void cli_help(struct cli *c, const struct cli_object *o,
	      const struct cli_cmd *k)
{
	char *text = NULL;
	size_t len;
	FILE *f = c->json ? open_memstream(&text, &len) : c->out;

	if (!f) {
		cli_error(c, EXIT_FAIL, "out of memory");
		return;
	}
	if (!o && c->interactive)
		shell_usage(f);
	else if (!o)
		cli_usage(f);
	else if (!k)
		help_object(f, o);
	else
		help_command(f, o, k);
	if (c->json) {
		fclose(f);
		json_print_str(c->out, "help", text);
		free(text);
	}
}
