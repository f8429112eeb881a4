// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What damoctl says besides a command's output: errors, prefixed
 * "OBJECT COMMAND: " (and "FILE:LINE: " in a batch), notes, and the
 * library's errors with damoctl's advice in them.  With --json, in the
 * command's document.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

static void vreport(struct cli *c, const char *fmt, va_list ap)
{
	char msg[4096], where[600] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (c->object)
		snprintf(where, sizeof(where), "%s%s%s%s%s: ",
			 c->where ? c->where : "", c->where ? ": " : "",
			 c->object, c->command ? " " : "",
			 c->command ? c->command : "");
	else if (c->where)
		snprintf(where, sizeof(where), "%s: ", c->where);
	if (c->json && c->capture) {
		char full[4800];

		snprintf(full, sizeof(full), "%s%s", where, msg);
		json_add(&c->json_errs, &c->nr_errs, full);
	} else if (c->json) {
		char full[4800];

		snprintf(full, sizeof(full), "%s%s", where, msg);
		json_print_str(c->out, "error", full);
	} else {
		fprintf(c->err, "damoctl: %s%s\n", where, msg);
	}
}

int cli_error(struct cli *c, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, fmt, ap);
	va_end(ap);
	return status;
}

/* The rule of apply (cli_conf_check_ops) for scheme add and target set. */
int cli_check_ops(struct cli *c, enum damon_ops o, enum damos_action a,
		  const char *which)
{
	if (damon_ops_supports(o, a))
		return EXIT_OK;
	return cli_error(c, EXIT_USAGE,
			 "%s%s does nothing on %s targets (Linux 6.1 applies %s there)",
			 which ? which : "", damos_action_name(a), damon_ops_name(o),
			 o == DAMON_OPS_PADDR ? "pageout, lru_prio, lru_deprio and stat" :
			 "willneed, cold, pageout, hugepage, nohugepage and stat");
}

void cli_note(struct cli *c, const char *fmt, ...)
{
	FILE *f = c->json || c->dry_run ? c->err : c->out;
	va_list ap;

	if (c->json && c->capture) {
		char msg[1024];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		json_add(&c->json_notes, &c->nr_notes, msg);
		return;
	}
	fprintf(f, "damoctl: ");
	if (c->object)
		fprintf(f, "%s%s%s: ", c->object, c->command ? " " : "",
			c->command ? c->command : "");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/*
 * The library says what went wrong and hints at what helps; the words of
 * the advice, damoctl's options and commands, are damoctl's.
 */

static bool advice(const struct damos_hint_info *h, char *buf, size_t sz)
{
	switch (h->hint) {
	case DAMOS_HINT_USE_SYSFS:
		snprintf(buf, sz, ": use --interface sysfs");
		break;
	case DAMOS_HINT_STOP_MONITOR:
		snprintf(buf, sz, " (damoctl monitor stop)");
		break;
	case DAMOS_HINT_STOP_DBGFS:
		snprintf(buf, sz, " (damoctl --interface dbgfs monitor stop)");
		break;
	case DAMOS_HINT_STOP_KDAMOND:
		if (h->arg)
			snprintf(buf, sz, " (damoctl --kdamond %lld monitor stop)",
				 (long long)h->arg);
		else
			snprintf(buf, sz, " (damoctl monitor stop)");
		break;
	case DAMOS_HINT_STOP_LRU_SORT:
		snprintf(buf, sz, " (damoctl lru-sort disable)");
		break;
	case DAMOS_HINT_STOP_RECLAIM:
		snprintf(buf, sz, " (damoctl reclaim disable)");
		break;
	case DAMOS_HINT_SET_TARGET:
		snprintf(buf, sz, " (damoctl target set ...)");
		break;
	case DAMOS_HINT_PICK_KDAMOND:
		if (h->arg <= 0)
			return false;
		snprintf(buf, sz, ": use --kdamond 0..%lld", (long long)h->arg - 1);
		break;
	default:
		return false;
	}
	return true;
}

const char *cli_errmsg(void)
{
	static __thread char buf[1024];
	struct damos_hint_info h = { .sz = sizeof(h) };
	const char *msg = damos_errmsg();
	char words[128];

	if (damos_error_hint(&h) || !advice(&h, words, sizeof(words)) ||
	    h.pos > strlen(msg))
		return msg;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)h.pos, msg, words,
		 msg + h.pos);
	return buf;
}

int cli_lib_error(struct cli *c, int err)
{
	const char *msg = cli_errmsg();

	if (!*msg)
		msg = strerror(-err);
	/* a file a kernel would have made: what FAKE TREES in damoctl(8) says */
	if (err == -ENOENT && c->root && strcmp(c->root, "/") && !cli_fake_kernel())
		return cli_error(c, EXIT_FAIL,
				 "%s (under --root the tree is used as it is, and must be complete: see FAKE TREES in damoctl(8))",
				 msg);
	return cli_error(c, err == -ENOTRECOVERABLE ? EXIT_RESTORE : EXIT_FAIL,
			 "%s", msg);
}

/* A grammar the library parses: bad words are the user's, ENOMEM is not. */
int cli_parse_error(struct cli *c, int err)
{
	return err == -ENOMEM ? cli_lib_error(c, err) :
	       cli_error(c, EXIT_USAGE, "%s", cli_errmsg());
}
