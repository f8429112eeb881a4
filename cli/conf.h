/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * damoctl's own grammars (cli/conf.c): the word splitting of its command
 * lines, batch files and shell, and damoctl.conf(5).  Not libdamos API:
 * libdamos exports the DAMON model only.  No json-c or readline here, so
 * the unit tests and fuzzers link cli/conf.o alone.
 */
#ifndef DAMOCTL_CONF_H
#define DAMOCTL_CONF_H

#include "damos-private.h"

/*
 * cli_words_split() - split one line into words the way damoctl's
 * command lines, batch files, shell and damoctl.conf(5) all do: blanks
 * separate words; '...' and "..." quote (inside "...", a backslash takes
 * the next character as it is); a '#' that starts a word starts a comment
 * that runs to the end of the line.
 *
 * Return: 0 with a malloc()ed, NULL-terminated array of malloc()ed words
 * in *@argv (free with cli_words_free(); NULL for a blank line) and
 * their number in *@argc; -EINVAL for an unterminated quote, -ENOMEM.
 */
int cli_words_split(const char *line, int *argc, char ***argv);

/*
 * cli_words_free() - free what cli_words_split() returned; NULL is a
 * no-op.
 */
void cli_words_free(int argc, char **argv);

/*
 * cli_line_append() - append the @n bytes of @part and a blank to the
 * command *@cmd of *@len bytes (a malloc()ed string, or NULL and 0): the
 * lines of a command that a trailing backslash continues (batch files,
 * damoctl.conf(5)), joined before cli_words_split() splits it.
 *
 * Return: 0 with *@cmd (reallocated, NUL-terminated) and *@len updated;
 * -ENOMEM with both as they were.
 */
int cli_line_append(char **cmd, size_t *len, const char *part, size_t n);

/* ------------------------------------------------------------------------
 * damoctl.conf(5): a whole setup, one directive a line ('#' comments,
 * quotes as in sh, a trailing backslash continues the line):
 *
 *   interface auto|sysfs|dbgfs             at most once
 *   attrs [sample T] [aggr T] [update T] [regions MIN MAX]     once
 *   target paddr|vaddr|fvaddr ...          once, "damoctl target set"
 *   scheme ACTION [KEYWORDS]               any number, in order
 *   scheme none                            no schemes at all
 *   monitor on|off                         once
 *   lru-sort [on|off] [KEYWORDS]           once, "damoctl lru-sort set"
 *
 * A directive that is absent leaves that part of the setup as it is.
 */
struct cli_conf;

/*
 * cli_conf_parse() - parse @len bytes of @buf (need not be
 * NUL-terminated; a NUL byte is an error of its line).  Every bad line is
 * recorded (cli_conf_error()); parsing goes on after one.  Schemes are
 * converted with the file's attrs, else the kernel's defaults (see
 * cli_conf_schemes() for the live ones).
 *
 * Return: 0 with *@out; -EINVAL with *@out set too (the errors are in
 * it); -ENOMEM with *@out NULL.
 */
int cli_conf_parse(const char *buf, size_t len, struct cli_conf **out);

/*
 * cli_conf_free() - free @c; NULL is a no-op.
 */
void cli_conf_free(struct cli_conf *c);

/*
 * cli_conf_nr_errors() / cli_conf_error() - the errors recorded,
 * sorted by line: message i ("scheme: min age 10s > max age 5s") and its
 * line number in *@line (may be NULL).
 *
 * Return: the message, owned by @c; NULL (EINVAL) if there is no error i.
 */
size_t cli_conf_nr_errors(const struct cli_conf *c);
const char *cli_conf_error(const struct cli_conf *c, size_t i,
			   unsigned int *line);

/*
 * cli_conf_add_error() - record an error the caller found at @line
 * (for rules that need the live system), keeping the order by line.
 *
 * Return: -EINVAL (there is now an error), or -ENOMEM.
 */
int cli_conf_add_error(struct cli_conf *c, unsigned int line,
		       const char *msg);

/*
 * cli_conf_directives() - the directive names, NULL-terminated.
 * cli_conf_line() - the line of the (first) @directive; 0 if absent.
 * cli_conf_scheme_line() - the line of scheme @i; 0 if none.
 */
const char *const *cli_conf_directives(void);
unsigned int cli_conf_line(const struct cli_conf *c,
			   const char *directive);
unsigned int cli_conf_scheme_line(const struct cli_conf *c, size_t i);

/*
 * The parts of the setup; each is "absent" when the file does not have it:
 * cli_conf_iface()     enum damon_iface, or -1
 * cli_conf_attrs()     NULL
 * cli_conf_targets()   NULL
 * cli_conf_monitor()   1 on, 0 off, -1
 * cli_conf_lru_sort()  the parameters given (others at their
 *                      defaults, see damon_module_overlay()), NULL
 * cli_conf_lru_sort_enable()  1 on, 0 off, -1
 */
int cli_conf_iface(const struct cli_conf *c);
const struct damon_attrs *cli_conf_attrs(const struct cli_conf *c);
const struct damon_targets *cli_conf_targets(const struct cli_conf *c);
int cli_conf_monitor(const struct cli_conf *c);
const struct damon_module *cli_conf_lru_sort(const struct cli_conf *c);
int cli_conf_lru_sort_enable(const struct cli_conf *c);

/*
 * cli_conf_schemes() - the schemes, converted with the file's attrs
 * or, if it has none, with @live (the context's attributes; NULL keeps the
 * kernel's defaults).  Conversions that fail are recorded as errors of
 * their lines.
 *
 * Return: 0 with the array (owned by @c, valid until the next call or
 * cli_conf_free()) in *@s and its length in *@n (0 for "scheme none");
 * -ENOENT if the file has no scheme line; -EINVAL if @c has errors.
 */
int cli_conf_schemes(struct cli_conf *c,
		     const struct damon_attrs *live,
		     struct damos_scheme *const **s, size_t *n);

/*
 * cli_conf_check_ops() - record an error for every scheme whose action
 * does nothing on operations @o (damon_ops_supports()).  The parser does
 * it for the file's own target line; a caller does it for the live
 * targets otherwise.
 *
 * Return: 0, or -EINVAL if @c has errors.
 */
int cli_conf_check_ops(struct cli_conf *c, enum damon_ops o);

#endif
