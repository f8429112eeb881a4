// SPDX-License-Identifier: GPL-2.0
/*
 * ptyexpect: run a command on a pseudo-terminal and talk to it, for the
 * in-guest shell tests (the guest has neither expect nor tmux).
 *
 *   ptyexpect [-t SECONDS] -- COMMAND [ARGS...] < SCRIPT
 *
 * SCRIPT has one step a line:
 *   send TEXT        write TEXT (escapes: \r \n \t \e \\ \xHH)
 *   expect TEXT      wait until the output since the last match has TEXT
 *   expect-re REGEX  the same with a POSIX extended regex
 *   # ...            a comment
 * The command's output is copied to stdout as it comes.  The exit status is
 * the command's once SCRIPT is done and it ended (within the timeout), or
 * 99 after a timeout or an end of output while expecting (reason on stderr).
 */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int master = -1;
static char *buf;		/* output not yet matched */
static size_t len, cap;
static int timeout_s = 30;
static pid_t child;

static void die(const char *why, const char *what)
{
	fflush(stdout);
	fprintf(stderr, "\nptyexpect: %s%s%s\n", why, what ? ": " : "", what ? what : "");
	if (child > 0)
		kill(child, SIGKILL);
	exit(99);
}

static size_t unescape(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		if (*p != '\\' || !p[1]) {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'r': *o++ = '\r'; break;
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'e': *o++ = 033; break;
		case 'x': {
			char hex[3] = { p[1], p[1] ? p[2] : 0, 0 };

			*o++ = (char)strtol(hex, NULL, 16);
			p += 2;
			break;
		}
		default: *o++ = *p; break;
		}
	}
	return o - s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read what is there within @ms; false at the end of the output. */
static int pump(int ms)
{
	struct pollfd p = { .fd = master, .events = POLLIN };
	char chunk[4096];
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return 1;
	n = read(master, chunk, sizeof(chunk));
	if (n <= 0)
		return 0;	/* EIO: the slave side is closed */
	fwrite(chunk, 1, n, stdout);
	fflush(stdout);
	if (len + n + 1 > cap) {
		cap = (len + n + 1) * 2;
		buf = realloc(buf, cap);
		if (!buf)
			die("out of memory", NULL);
	}
	/* NULs would end the text that regexec() sees */
	for (ssize_t k = 0; k < n; k++)
		buf[len + k] = chunk[k] ? chunk[k] : ' ';
	len += n;
	buf[len] = '\0';
	return 1;
}

/* The end of the first match in buf, or -1. */
static long match(const char *pat, size_t plen, regex_t *re)
{
	regmatch_t m;

	if (re)
		return regexec(re, buf, 1, &m, 0) ? -1 : (long)m.rm_eo;
	for (size_t i = 0; plen && i + plen <= len; i++)
		if (!memcmp(buf + i, pat, plen))
			return (long)(i + plen);
	return -1;
}

static void expect(char *arg, int is_re)
{
	double deadline = now() + timeout_s;
	size_t plen = is_re ? 0 : unescape(arg);
	regex_t re;
	long end;

	if (is_re && regcomp(&re, arg, REG_EXTENDED))
		die("bad regex", arg);
	for (;;) {
		end = len ? match(arg, plen, is_re ? &re : NULL) : -1;
		if (end >= 0)
			break;
		if (now() > deadline)
			die("timeout waiting for", arg);
		if (!pump(100))
			die("end of output waiting for", arg);
	}
	memmove(buf, buf + end, len - end);
	len -= end;
	if (buf)
		buf[len] = '\0';
	if (is_re)
		regfree(&re);
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	char *line = NULL;
	size_t lcap = 0;
	int i = 1, status;
	double deadline;

	if (i + 1 < argc && !strcmp(argv[i], "-t")) {
		timeout_s = atoi(argv[i + 1]);
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		fprintf(stderr, "usage: ptyexpect [-t SECONDS] -- COMMAND [ARGS...] < SCRIPT\n");
		return 2;
	}
	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0)
		die("forkpty", strerror(errno));
	if (!child) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "ptyexpect: %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	while (getline(&line, &lcap, stdin) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "send ", 5)) {
			size_t n = unescape(line + 5);

			if (write(master, line + 5, n) != (ssize_t)n)
				die("write", strerror(errno));
		} else if (!strncmp(line, "expect ", 7)) {
			expect(line + 7, 0);
		} else if (!strncmp(line, "expect-re ", 10)) {
			expect(line + 10, 1);
		} else if (line[0] && line[0] != '#') {
			die("bad script line", line);
		}
	}
	deadline = now() + timeout_s;
	while (pump(100))
		if (now() > deadline)
			die("timeout waiting for the end", NULL);
	if (waitpid(child, &status, 0) < 0)
		die("waitpid", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
