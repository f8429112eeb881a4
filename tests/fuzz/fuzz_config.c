// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * damoctl.conf(5): the config file of "damoctl apply" and the boot unit,
 * parsed by cli_conf_parse() (directives, sh quotes, # comments,
 * backslash continuations, DOS line ends, NULs).
 *
 * Input: the file, as bytes.
 * Properties: no crash, leak or UB; 0 means no error recorded, -EINVAL at
 * least one, every error has a message and a line within the file, sorted
 * by line; the schemes it yields are valid and print (damos_scheme_format)
 * to words that parse back to the same scheme; the accessors hold up.
 */
#include <errno.h>

#include "conf.h"
#include "fuzz.h"

#define MAX_WORDS 64

static void schemes(struct cli_conf *c, unsigned int nr_lines)
{
	static const struct damon_attrs live = { sizeof(live), 10000, 200000, 1000000, 10, 1000 };
	struct damos_scheme *const *s;
	char text[1024], *words[MAX_WORDS];
	size_t n;
	int err;

	err = cli_conf_schemes(c, &live, &s, &n);
	if (err)
		return;
	for (size_t i = 0; i < n; i++) {
		struct damos_scheme *back;
		int nw;

		FUZZ_CHECK(!damos_scheme_validate(s[i]),
			   "config scheme %zu is not valid", i);
		FUZZ_CHECK(cli_conf_scheme_line(c, i) >= 1 &&
			   cli_conf_scheme_line(c, i) <= nr_lines,
			   "scheme %zu on line %u of %u", i,
			   cli_conf_scheme_line(c, i), nr_lines);
		FUZZ_CHECK(damos_scheme_format(s[i], text, sizeof(text)) > 0,
			   "config scheme %zu does not format", i);
		nw = fuzz_split(text, " ", words, MAX_WORDS);
		back = damos_scheme_parse(nw, (const char *const *)words, NULL);
		FUZZ_CHECK(back && damos_scheme_equal(s[i], back),
			   "config scheme %zu does not read back", i);
		damos_scheme_free(back);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);	/* not NUL-terminated */
	struct cli_conf *c = NULL;
	unsigned int nr_lines = 1, prev = 0, line;
	int err;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	for (size_t i = 0; i < size; i++)
		nr_lines += data[i] == '\n';
	err = cli_conf_parse(buf, size, &c);
	FUZZ_CHECK(err == 0 || err == -EINVAL || err == -ENOMEM,
		   "config_parse = %d", err);
	FUZZ_CHECK(err == -ENOMEM ? !c : !!c, "config_parse = %d, out %p",
		   err, (void *)c);
	if (!c) {
		free(buf);
		return 0;
	}
	FUZZ_CHECK(!err == !cli_conf_nr_errors(c),
		   "config_parse = %d with %zu errors", err,
		   cli_conf_nr_errors(c));
	for (size_t i = 0; i < cli_conf_nr_errors(c); i++) {
		const char *msg = cli_conf_error(c, i, &line);

		FUZZ_CHECK(msg && *msg, "config error %zu has no message", i);
		FUZZ_CHECK(line >= 1 && line <= nr_lines,
			   "config error '%s' on line %u of %u", msg, line,
			   nr_lines);
		FUZZ_CHECK(line >= prev, "config errors not sorted by line");
		prev = line;
	}
	for (const char *const *d = cli_conf_directives(); *d; d++)
		FUZZ_CHECK(cli_conf_line(c, *d) <= nr_lines,
			   "directive %s on line %u of %u", *d,
			   cli_conf_line(c, *d), nr_lines);
	cli_conf_iface(c);
	cli_conf_monitor(c);
	cli_conf_lru_sort_enable(c);
	if (cli_conf_attrs(c) && !err)
		damon_attrs_validate(cli_conf_attrs(c));
	if (cli_conf_targets(c) && !err)
		damon_targets_validate(cli_conf_targets(c));
	if (cli_conf_lru_sort(c))
		damon_module_validate(cli_conf_lru_sort(c));
	if (!err)
		schemes(c, nr_lines);
	cli_conf_check_ops(c, DAMON_OPS_PADDR);
	cli_conf_free(c);
	free(buf);
	return 0;
}
