// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Built against an installed libdamos by make check-install. */
#include <stdio.h>
#include <string.h>
#include <damos.h>

int main(void)
{
	struct damon_attrs a;
	struct damos_scheme *s;
	char line[256];

	damon_attrs_default(&a);
	s = damos_scheme_new_preset(DAMOS_ACTION_LRU_PRIO, &a);
	if (!s || damos_dbgfs_encode_scheme(s, line, sizeof(line)) < 0)
		return 1;
	damos_scheme_free(s);
	printf("libdamos %s: %s", damos_version(), line);
	return strncmp(line, "4096 ", 5) != 0;
}
