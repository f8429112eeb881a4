// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static __thread char errmsg[512];

const char *damos_errmsg(void)
{
	return errmsg;
}

const char *damos_version(void)
{
	return DAMOS_VERSION;
}

static void set_msg(const char *fmt, va_list ap)
{
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
}

int damos_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	return err;
}

void *damos_err_null(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	errno = -err;
	return NULL;
}

int damos_err_prefix(int err, const char *fmt, ...)
{
	char old[sizeof(errmsg)];
	size_t n;
	va_list ap;

	memcpy(old, errmsg, sizeof(old));
	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	n = strlen(errmsg);
	snprintf(errmsg + n, sizeof(errmsg) - n, "%s", old);
	return err;
}

void damos_buf_printf(struct damos_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = -EINVAL;
			return;
		}
		if ((size_t)n < room) {
			b->len += n;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 256;

		while (cap - b->len <= (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->err = -ENOMEM;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

void damos_buf_free(struct damos_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}
