// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * damoctl's command line: the line splitter of batch files and the shell
 * (cli_words_split: quotes, backslashes, # comments), then the whole dispatcher
 * (cli_run: every object, command and keyword) on a fake tree.
 *
 * Input: one byte picking the interface and --json, then the line.
 * Properties: no crash, leak or UB; a line that splits gives words that,
 * quoted again, split back to the same words; cli_run returns 0, 1 or 2.
 * Safety: the input never sets --root, --context or --dry-run: every run
 * is a dry run below a private fake tree, so nothing is written anywhere;
 * --watch runs once.
 */
#include <errno.h>

#include "cli.h"
#include "faketree.h"

static FILE *devnull;

struct qbuf {
	char *s;
	size_t n;
};

/* @w in double quotes, with the only two escapes the splitter knows. */
static void quote(struct qbuf *b, const char *w)
{
	b->s[b->n++] = '"';
	for (; *w; w++) {
		if (*w == '"' || *w == '\\')
			b->s[b->n++] = '\\';
		b->s[b->n++] = *w;
	}
	b->s[b->n++] = '"';
	b->s[b->n++] = ' ';
}

static void split_round_trip(int argc, char **argv, size_t len)
{
	struct qbuf b = { malloc(2 * len + 4 * (size_t)argc + 1), 0 };
	char **back;
	int n;

	if (!b.s)
		abort();
	for (int i = 0; i < argc; i++)
		quote(&b, argv[i]);
	b.s[b.n] = '\0';
	FUZZ_CHECK(!cli_words_split(b.s, &n, &back), "requoted line '%s' does not split",
		   b.s);
	FUZZ_CHECK(n == argc, "requoted line '%s': %d words, not %d", b.s, n,
		   argc);
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(!strcmp(back[i], argv[i]),
			   "word %d '%s' requoted reads back as '%s'", i,
			   argv[i], back[i]);
	cli_words_free(n, back);
	free(b.s);
}

/*
 * --watch repeats a command until interrupted: let it run once ("--count
 * 1", which never sleeps), so that its parsing is fuzzed but no input
 * hangs.  Return false if argv cannot be extended.
 */
static bool watch_once(int *argc, char ***argv)
{
	bool watch = false;
	char **v = *argv, **nv;

	for (int i = 0; i < *argc; i++) {
		if (!strcmp(v[i], "--watch") || !strcmp(v[i], "-w"))
			watch = true;
		if (!strcmp(v[i], "--count") && i + 1 < *argc) {
			free(v[i + 1]);
			v[i + 1] = strdup("1");
			if (!v[i + 1])
				abort();
			return true;
		}
	}
	if (!watch)
		return true;
	nv = realloc(v, (*argc + 3) * sizeof(*nv));
	if (!nv)
		return false;
	nv[*argc] = strdup("--count");
	nv[*argc + 1] = strdup("1");
	nv[*argc + 2] = NULL;
	if (!nv[*argc] || !nv[*argc + 1])
		abort();
	*argc += 2;
	*argv = nv;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum damon_iface ifaces[] = {
		DAMON_IFACE_AUTO, DAMON_IFACE_SYSFS, DAMON_IFACE_DBGFS,
	};
	struct cli c;
	char *line, **argv;
	int argc, err, status;

	if (size < 1)
		return 0;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	line = fuzz_cstr(data + 1, size - 1);
	err = cli_words_split(line, &argc, &argv);
	if (err) {
		FUZZ_CHECK(err == -EINVAL, "cli_words_split = %d", err);
		free(line);
		return 0;
	}
	split_round_trip(argc, argv, strlen(line));
	if (!watch_once(&argc, &argv)) {
		cli_words_free(argc, argv);
		free(line);
		return 0;
	}

	cli_init(&c);
	c.root = fake_tree();
	c.dry_run = true;
	c.iface = ifaces[data[0] % 3];
	c.json = data[0] & 4;
	c.out = devnull;
	c.err = devnull;
	status = cli_run(&c, argc, argv);
	FUZZ_CHECK(status == EXIT_OK || status == EXIT_FAIL ||
		   status == EXIT_USAGE, "cli_run = %d", status);
	cli_fini(&c);
	cli_words_free(argc, argv);
	free(line);
	return 0;
}
