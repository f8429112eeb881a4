// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static __thread char errmsg[512];
/* The hint of the last failure and where its advice fits in errmsg. */
static __thread struct {
	enum damos_hint hint;
	size_t pos;
	int64_t arg;
} last_hint;

const char *damos_errmsg(void)
{
	return errmsg;
}

const char *damos_version(void)
{
	return DAMOS_VERSION;
}

int damos_error_hint(struct damos_hint_info *out)
{
	struct damos_hint_info h = { 0 };

	if (!out || out->sz < offsetof(struct damos_hint_info, arg) + sizeof(h.arg))
		return -EINVAL;
	h.sz = out->sz < sizeof(h) ? out->sz : sizeof(h);
	h.hint = last_hint.hint;
	h.pos = last_hint.hint ? last_hint.pos : strlen(errmsg);
	h.arg = last_hint.arg;
	memcpy(out, &h, h.sz);
	return 0;
}

/*
 * The message, without a hint: a later failure's hint must not be read
 * against an earlier one's words.
 */
static void set_msg(const char *fmt, va_list ap)
{
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	last_hint.hint = DAMOS_HINT_NONE;
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

int damos_err_hint(int err, enum damos_hint hint, int64_t arg,
		   const char *fmt, ...)
{
	char *at;
	va_list ap;

	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	at = strchr(errmsg, DAMOS_HINT_AT[0]);
	last_hint.pos = at ? (size_t)(at - errmsg) : strlen(errmsg);
	if (at)
		memmove(at, at + 1, strlen(at + 1) + 1);
	last_hint.hint = hint;
	last_hint.arg = arg;
	return err;
}

int damos_err_prefix(int err, const char *fmt, ...)
{
	char old[sizeof(errmsg)];
	typeof(last_hint) hint = last_hint;
	size_t n;
	va_list ap;

	memcpy(old, errmsg, sizeof(old));
	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	n = strlen(errmsg);
	snprintf(errmsg + n, sizeof(errmsg) - n, "%s", old);
	/* the advice stays where it fitted in the old words */
	if (hint.hint && hint.pos + n < sizeof(errmsg)) {
		hint.pos += n;
		last_hint = hint;
	}
	return err;
}

/*
 * A struct with .sz from a caller built against another version: at least
 * @min bytes, and those past the @known this library has must be zero
 * (what it does not know it cannot honour), as libbpf's OPTS_VALID().
 */
int damos_sz_check(const void *p, size_t sz, size_t known, size_t min,
		   const char *name)
{
	const unsigned char *extra = (const unsigned char *)p + known;

	if (sz < min)
		return damos_err(-EINVAL, "%s: .sz not set", name);
	for (size_t i = 0; sz > known && i < sz - known; i++)
		if (extra[i])
			return damos_err(-EINVAL,
					 "%s: byte %zu is set, and this libdamos knows only the first %zu (fields of a newer version)",
					 name, known + i, known);
	return 0;
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

static bool plain_word(const char *s, size_t len)
{
	if (!len || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=+,%@-", s[i]))
			return false;
	return true;
}

void damos_quote_n(struct damos_buf *b, const char *s, size_t len)
{
	if (plain_word(s, len)) {
		damos_buf_printf(b, "%.*s", (int)len, s);
		return;
	}
	damos_buf_printf(b, "'");
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			damos_buf_printf(b, "'\\''");
		else
			damos_buf_printf(b, "%c", s[i]);
	}
	damos_buf_printf(b, "'");
}

void damos_quote(struct damos_buf *b, const char *s)
{
	damos_quote_n(b, s, strlen(s));
}

const char *damos_join_names(char *buf, size_t sz, const char *const *first,
			     size_t n, size_t stride)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sz; i++) {
		const char *name = *(const char *const *)((const char *)first +
							   i * stride);

		len += snprintf(buf + len, sz - len, "%s%s", i ? " " : "", name);
	}
	return buf;
}
