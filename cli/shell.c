// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interactive shell: "damoctl" with no command on a terminal.  A thin
 * readline loop around the dispatcher that argv and -f use: an error is
 * printed and the shell goes on.  History in ~/.damoctl_history, tab
 * completion from the command tables (cli_complete_words()).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli.h"

#define HISTORY_MAX	1000

static const char *const shell_words[] = { "quit", "exit", NULL };

static char *history_path(void)
{
	const char *home = getenv("HOME");
	char *p;

	if (!home || !*home)
		return NULL;
	if (asprintf(&p, "%s/.damoctl_history", home) < 0)
		return NULL;
	return p;
}

/* The session's options (scheme indexes are read with them). */
static struct cli *shell_cli;
/* The candidates of the completion under way, for the generator. */
static const char **cands;
static int cand_idx;

static char *generator(const char *text, int state)
{
	size_t len = strlen(text);

	if (!state)
		cand_idx = 0;
	while (cands && cands[cand_idx]) {
		const char *w = cands[cand_idx++];

		if (!strncmp(w, text, len))
			return strdup(w);
	}
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	char *before = strndup(rl_line_buffer, start);
	char **argv = NULL, **matches = NULL;
	int argc = 0;

	(void)end;
	rl_attempted_completion_over = 1;	/* no file names by default */
	if (!before || cli_words_split(before, &argc, &argv)) {
		free(before);
		return NULL;
	}
	cands = cli_complete_words(shell_cli, argc, argv);
	if (cands && argc == 0) {	/* the shell's own words (room: 64) */
		int n = 0;

		while (cands[n])
			n++;
		for (int i = 0; shell_words[i] && n < 63; i++)
			cands[n++] = shell_words[i];
	}
	if (argc >= 1 && !strcmp(argv[0], "apply"))
		rl_attempted_completion_over = 0;	/* apply FILE */
	matches = rl_completion_matches(text, generator);
	free(cands);
	cands = NULL;
	cli_words_free(argc, argv);
	free(before);
	return matches;
}

/*
 * Ctrl-C at the prompt drops the line, as in bash, but as a key, not as a
 * signal: while readline has the terminal the tty's interrupt character is
 * off (VINTR = _POSIX_VDISABLE) and bound to shell_interrupt().  A SIGINT
 * made the tty discard the input typed ahead, and readline handles a caught
 * signal only before it waits: one that came between that check and
 * pselect(), or between pselect() and read(), left it waiting on the
 * emptied queue until the next key.  A key is read in order with the others.
 */
static bool interrupted;

static int shell_interrupt(int count, int key)
{
	(void)count;
	(void)key;
	interrupted = true;
	rl_point = rl_end;
	rl_redisplay();
	rl_echo_signal_char(SIGINT);	/* "^C", as the tty would echo it */
	return rl_newline(1, '\n');	/* readline returns; the line is dropped */
}

static void prep_terminal(int meta)
{
	int fd = fileno(rl_instream ? rl_instream : stdin);
	struct termios t;
	cc_t intr;

	rl_prep_terminal(meta);
	if (tcgetattr(fd, &t) || t.c_cc[VINTR] == _POSIX_VDISABLE)
		return;
	intr = t.c_cc[VINTR];
	rl_bind_key_in_map(intr, shell_interrupt, emacs_standard_keymap);
	rl_bind_key_in_map(intr, shell_interrupt, vi_insertion_keymap);
	rl_bind_key_in_map(intr, shell_interrupt, vi_movement_keymap);
	t.c_cc[VINTR] = _POSIX_VDISABLE;
	tcsetattr(fd, TCSANOW, &t);	/* rl_deprep_terminal() restores it */
}

/* While a command runs, Ctrl-C (a signal again) does not end the shell; a
 * --watch loop has its own handler. */
static void on_sigint(int sig)
{
	(void)sig;
}

static void shell_help(struct cli *c)
{
	fprintf(c->out,
		"Commands are those of damoctl without \"damoctl\"; TAB completes them.\n"
		"  help [OBJECT [COMMAND]]   the grammar\n"
		"  quit, exit, Ctrl-D        leave the shell\n\n");
}

int cli_shell(struct cli *c)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	char *hist = history_path();
	char *line;

	c->interactive = true;
	shell_cli = c;
	rl_readline_name = "damoctl";
	rl_attempted_completion_function = complete;
	rl_completer_word_break_characters = " \t";
	rl_basic_word_break_characters = " \t";
	rl_prep_term_function = prep_terminal;
	using_history();
	stifle_history(HISTORY_MAX);
	/* append_history() needs the file: make it the first time */
	if (hist && read_history(hist) == ENOENT)
		write_history(hist);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, &old);
	fprintf(c->out, "damoctl %s: type help for the commands, quit or Ctrl-D to leave\n",
		DAMOS_VERSION);
	fflush(c->out);
	for (;;) {
		const char *p;

		interrupted = false;
		line = readline("damoctl> ");
		if (!line) {		/* Ctrl-D */
			fputc('\n', c->out);
			break;
		}
		if (interrupted) {	/* Ctrl-C: not run, not kept */
			free(line);
			continue;
		}
		p = line + strspn(line, " \t");
		if (*p) {
			HIST_ENTRY *last = history_length ?
				history_get(history_base + history_length - 1) : NULL;

			/* like HISTCONTROL=ignoredups */
			if (!last || strcmp(last->line, line)) {
				add_history(line);
				if (hist)
					append_history(1, hist);
			}
		}
		if ((!strncmp(p, "quit", 4) || !strncmp(p, "exit", 4)) &&
		    (!p[4] || p[4] == ' ' || p[4] == '\t')) {
			const char *q = p + 4;

			if (!*(q + strspn(q, " \t"))) {
				free(line);
				break;
			}
			cli_error(c, EXIT_USAGE, "%.4s takes nothing after it (got '%s')",
				  p, q + strspn(q, " \t"));
			free(line);
			continue;
		}
		if (!strcmp(p, "help") || !strncmp(p, "help ", 5) ||
		    !strncmp(p, "help\t", 5)) {
			if (!p[4 + strspn(p + 4, " \t")])
				shell_help(c);
		}
		cli_run_line(c, line);
		fflush(c->out);
		fflush(c->err);
		free(line);
		/* a Ctrl-C held while writing ends the command, not the shell */
		if (c->signalled == SIGINT)
			c->signalled = 0;
		if (c->signalled)
			break;
	}
	sigaction(SIGINT, &old, NULL);
	/* a history that cannot be kept is not an error */
	if (hist)
		history_truncate_file(hist, HISTORY_MAX);
	free(hist);
	return c->signalled ? 128 + c->signalled : EXIT_OK;
}
