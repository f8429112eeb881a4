// SPDX-License-Identifier: GPL-2.0-or-later
/* --watch SECONDS [--count N]: run a read-only command again and again. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Take --watch/-w SECONDS and --count N out of @argv (wherever they are),
 * so that the command sees only its own arguments.  They are moved after
 * the others, not dropped: the caller still owns and frees every word.
 */
int cli_watch_args(struct cli *c, int *argc, char **argv, uint64_t *us,
		   long *count)
{
	char **kept = calloc(*argc + 1, sizeof(*kept));
	char **opts = calloc(*argc + 1, sizeof(*opts));
	int i = 0, nk = 0, no = 0, status = EXIT_OK;

	*us = 0;
	*count = 0;
	if (!kept || !opts) {
		free(kept);
		free(opts);
		return cli_error(c, EXIT_FAIL, "out of memory");
	}
	while (!status && i < *argc) {
		const char *a = argv[i];
		bool watch = !strcmp(a, "--watch") || !strcmp(a, "-w");

		if (!watch && strcmp(a, "--count")) {
			kept[nk++] = argv[i++];
			continue;
		}
		if (i + 1 >= *argc) {
			status = cli_error(c, EXIT_USAGE, "%s: expected a value", a);
			break;
		}
		if (watch) {
			if (damos_parse_time_us(argv[i + 1], 1000000, us) ||
			    *us < 10000)
				status = cli_error(c, EXIT_USAGE,
						   "--watch: '%s' is not an interval of at least 10ms (bare numbers are seconds)",
						   argv[i + 1]);
		} else {
			char *end;

			errno = 0;
			*count = strtol(argv[i + 1], &end, 10);
			if (errno || *end || *count < 1)
				status = cli_error(c, EXIT_USAGE,
						   "--count: '%s' is not a positive count",
						   argv[i + 1]);
		}
		opts[no++] = argv[i++];
		opts[no++] = argv[i++];
	}
	if (!status && *count && !*us)
		status = cli_error(c, EXIT_USAGE, "--count needs --watch");
	if (!status) {
		memcpy(argv, kept, nk * sizeof(*argv));
		memcpy(argv + nk, opts, no * sizeof(*argv));
		*argc = nk;
	}
	free(kept);
	free(opts);
	return status;
}

static void header(struct cli *c, uint64_t us)
{
	char t[32], iv[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(t, sizeof(t), "%H:%M:%S", &tm);
	/* home, clear to the end: the next frame overwrites this one */
	fprintf(c->out, "\033[H\033[J");
	fprintf(c->out, "Every %s: damoctl %s%*s%s\n\n",
		damos_format_time_us(us, iv, sizeof(iv)), c->line,
		(int)(strlen(c->line) < 50 ? 50 - strlen(c->line) : 1), "",
		t);
}

/*
 * On a terminal each frame replaces the last (like watch(1)); otherwise
 * frames follow each other, separated by a blank line (text) or one JSON
 * document a line.  Ctrl-C ends the loop with status 0, also in the shell.
 */
int cli_watch(struct cli *c, const struct cli_cmd *k, int argc, char **argv,
	      uint64_t us, long count)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	bool tty = isatty(fileno(c->out)) && !c->json;
	int status = EXIT_OK;

	sigemptyset(&sa.sa_mask);
	interrupted = 0;	/* before the handler: a Ctrl-C from now on counts */
	sigaction(SIGINT, &sa, &old);
	for (long i = 0; !interrupted && (!count || i < count); i++) {
		struct timespec ts = {
			.tv_sec = us / 1000000,
			.tv_nsec = (us % 1000000) * 1000,
		};

		if (tty)
			header(c, us);
		else if (i && !c->json)
			fputc('\n', c->out);
		c->watch_frame = i + 1;
		status = cli_call(c, k, argc, argv);
		c->watch_frame = 0;
		fflush(c->out);
		if (status || (count && i + 1 == count))
			break;
		while (!interrupted && nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old, NULL);
	/* the shell's prompt goes on a line of its own, after "^C" */
	if (interrupted && c->interactive)
		fputc('\n', c->out);
	return status;
}
