// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report heatmap: address x time access over a duration, as damo's report
 * heatmap shows it.  Snapshots as report access takes them, one an
 * aggregation interval at most, binned into a matrix of access rates (per
 * cent of the most an aggregation interval counts, weighted by the bytes
 * of each region in a cell); drawn in the terminal, or as a PNG or SVG by
 * gnuplot (run as a program, as damo does), or printed as JSON.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

static const char *const hm_source_words[] = { "auto", "tried", "trace", NULL };
static const char *const color_words[] = { "auto", "always", "never", NULL };

struct snap {
	uint64_t t_us;			/* since the recording started */
	struct damos_tried_region *r;
	size_t nr;
};

struct heatmap {
	/* what was asked */
	struct damon_snapshot_opts o;
	uint64_t duration_us;
	unsigned long rows, cols;	/* 0: the default */
	uint64_t lo, hi;		/* hi 0: the default range */
	int color;
	unsigned long width, height;	/* of the image, pixels */
	const char *output, *data;
	const char *input;		/* --input FILE: a record, not the kernel */
	/* what was recorded */
	struct damon_attrs a;
	struct snap *s;
	size_t nr;
	/* the matrix: rows (time) x cols (address); heat < 0: no region */
	double *heat;
	uint64_t *row_us;
	double max_heat;
};

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int word_of(const char *const *words, const char *w)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

/* An address: a number in C's notation (0x...) or a size with a unit. */
static int parse_addr(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!errno && !*end)
		return 0;
	return damos_parse_size(s, v);
}

static int parse_count(const char *s, unsigned long min, unsigned long max,
		       unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end || *v < min || *v > max ? -EINVAL : 0;
}

static int image_kind(const char *file)
{
	const char *dot = strrchr(file, '.');

	if (dot && !strcasecmp(dot, ".png"))
		return 'p';
	if (dot && !strcasecmp(dot, ".svg"))
		return 's';
	return 0;
}

static int parse_args(struct cli *c, struct heatmap *h, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		/* each keyword is taken with "--" too, as damo spells them */
		const char *kw = argv[i] + (strncmp(argv[i], "--", 2) ? 0 : 2);
		int nr = !strcmp(kw, "resol") || !strcmp(kw, "address") ||
			 !strcmp(kw, "size") ? 2 : 1;
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int w;

		if (strcmp(kw, "duration") && strcmp(kw, "resol") &&
		    strcmp(kw, "address") && strcmp(kw, "source") &&
		    strcmp(kw, "color") && strcmp(kw, "size") &&
		    strcmp(kw, "output") && strcmp(kw, "data") &&
		    strcmp(kw, "input"))
			return cli_error(c, EXIT_USAGE,
					 "unknown keyword '%s' (expected duration, resol, address, source, color, size, --output, --data or --input)",
					 argv[i]);
		if (i + nr >= argc)
			return cli_error(c, EXIT_USAGE, "%s: expected %s", argv[i],
					 nr == 2 ? "two values" : "a value");
		i += nr;
		if (!strcmp(kw, "duration")) {
			if (damos_parse_time_us(v, 1000000, &h->duration_us) ||
			    !h->duration_us)
				return cli_error(c, EXIT_USAGE,
						 "duration: '%s' is not a time above 0 (units: us ms s m h; bare: s)",
						 v);
		} else if (!strcmp(kw, "resol")) {
			if (parse_count(v, 1, 10000, &h->rows))
				return cli_error(c, EXIT_USAGE,
						 "resol: '%s' is not a number of time rows (1 to 10000)", v);
			if (parse_count(argv[i], 1, 10000, &h->cols))
				return cli_error(c, EXIT_USAGE,
						 "resol: '%s' is not a number of address columns (1 to 10000)",
						 argv[i]);
		} else if (!strcmp(kw, "size")) {
			if (parse_count(v, 64, 10000, &h->width))
				return cli_error(c, EXIT_USAGE,
						 "size: '%s' is not an image width (64 to 10000 pixels)", v);
			if (parse_count(argv[i], 64, 10000, &h->height))
				return cli_error(c, EXIT_USAGE,
						 "size: '%s' is not an image height (64 to 10000 pixels)",
						 argv[i]);
		} else if (!strcmp(kw, "address")) {
			if (parse_addr(v, &h->lo))
				return cli_error(c, EXIT_USAGE,
						 "address: '%s' is not an address", v);
			if (parse_addr(argv[i], &h->hi))
				return cli_error(c, EXIT_USAGE,
						 "address: '%s' is not an address", argv[i]);
			if (h->hi <= h->lo)
				return cli_error(c, EXIT_USAGE,
						 "address: the end '%s' is not above the start '%s'",
						 argv[i], v);
		} else if (!strcmp(kw, "source")) {
			w = word_of(hm_source_words, v);
			if (w < 0)
				return cli_error(c, EXIT_USAGE,
						 "source: '%s' is not one of auto, tried, trace", v);
			h->o.source = w;
		} else if (!strcmp(kw, "color")) {
			w = word_of(color_words, v);
			if (w < 0)
				return cli_error(c, EXIT_USAGE,
						 "color: '%s' is not one of auto, always, never", v);
			h->color = w;
		} else if (!strcmp(kw, "output")) {
			if (!image_kind(v))
				return cli_error(c, EXIT_USAGE,
						 "--output: '%s' is not a .png or .svg file name", v);
			h->output = v;
		} else if (!strcmp(kw, "input")) {
			h->input = v;
		} else {
			h->data = v;
		}
	}
	if ((h->width || h->height) && !h->output)
		return cli_error(c, EXIT_USAGE, "size: is the size of --output's image; no --output given");
	return EXIT_OK;
}

/* gnuplot on PATH, looked for before a recording that may take minutes */
static bool have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s%sgnuplot", (int)n, path,
			 n ? "/" : "./");
		if (!access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* $TMPDIR/NAME.XXXXXX for mkstemp() */
static char *tmp_name(const char *name)
{
	const char *dir = getenv("TMPDIR");
	char *p;

	if (asprintf(&p, "%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", name) < 0)
		return NULL;
	return p;
}

/*
 * A new file beside @path, mode 0644 as the metrics' --output: written,
 * then renamed over @path, so a link at @path is replaced, never followed
 * (a symlink planted in a shared directory would redirect the write).
 */
static int beside_tmp(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	int fd;

	if (asprintf(tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(*tmp);
	if (fd >= 0 && fchmod(fd, 0644)) {
		int err = errno;

		close(fd);
		unlink(*tmp);
		errno = err;
		fd = -1;
	}
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

static void free_snaps(struct heatmap *h)
{
	for (size_t i = 0; i < h->nr; i++)
		free(h->s[i].r);
	free(h->s);
	free(h->heat);
	free(h->row_us);
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Snapshots for the duration, one an aggregation interval at most; Ctrl-C
 * ends the recording after the snapshot it is in, and what was recorded
 * is shown.
 */
static int record(struct cli *c, struct damon_ctx *d, struct heatmap *h)
{
	/* SA_RESTART: the kernel's files are read and written to the end;
	 * only the sleep between snapshots is cut short */
	struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART }, old;
	bool progress = isatty(fileno(c->err)) && !c->json;
	uint64_t t0 = mono_us();
	int err = 0;

	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	while (!err && !interrupted &&
	       (!h->nr || mono_us() - t0 < h->duration_us)) {
		struct damos_tried_regions *tr = NULL;
		uint64_t t1 = mono_us();
		struct snap *more, *s;

		err = cli_access_snapshot(d, &h->o, &tr);
		if (err)
			break;
		more = realloc(h->s, (h->nr + 1) * sizeof(*more));
		if (!more) {
			damos_tried_regions_free(tr);
			return -ENOMEM;
		}
		h->s = more;
		s = &h->s[h->nr];
		s->t_us = mono_us() - t0;
		s->nr = damos_tried_regions_nr(tr);
		s->r = calloc(s->nr ? s->nr : 1, sizeof(*s->r));
		if (!s->r) {
			damos_tried_regions_free(tr);
			return -ENOMEM;
		}
		h->nr++;
		for (size_t i = 0; i < s->nr; i++) {
			s->r[i].sz = sizeof(s->r[i]);
			damos_tried_regions_get(tr, i, &s->r[i]);
		}
		damos_tried_regions_free(tr);
		if (progress && mono_us() - t0 >= 1000000)
			fprintf(c->err, "\rreport heatmap: %zu snapshots, %llu s of %llu s (Ctrl-C: stop here)",
				h->nr, (unsigned long long)((mono_us() - t0) / 1000000),
				(unsigned long long)(h->duration_us / 1000000));
		if (!interrupted && mono_us() - t1 < h->a.aggr_us)
			usleep(h->a.aggr_us - (mono_us() - t1));
	}
	sigaction(SIGINT, &old, NULL);
	if (progress && mono_us() - t0 >= 1000000)
		fprintf(c->err, "\r\033[K");
	return err;
}

/* --input FILE: the snapshots of a record (cli/record.c) instead */
static int input(struct cli *c, struct heatmap *h)
{
	struct cli_record rec;
	int status = cli_record_input(c, h->input, &rec);

	if (status)
		return status;
	h->a = rec.a;
	h->s = calloc(rec.nr, sizeof(*h->s));
	if (!h->s) {
		cli_record_free(&rec);
		return cli_error(c, EXIT_FAIL, "out of memory");
	}
	for (size_t i = 0; i < rec.nr; i++)
		h->s[i] = (struct snap){
			.t_us = rec.s[i].end_ns >= rec.s[0].end_ns ?
				(rec.s[i].end_ns - rec.s[0].end_ns) / 1000 : 0,
			.r = rec.s[i].r, .nr = rec.s[i].nr,
		};
	h->nr = rec.nr;
	free(rec.s);
	return EXIT_OK;
}

struct span {
	uint64_t lo, hi;
	double heat;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The default address range, as damo's: of the spans the regions cover
 * without a gap (vaddr monitors three, far apart), the one with the most
 * accesses x bytes; the biggest if none was accessed.
 */
static int pick_range(struct heatmap *h)
{
	struct span *sp, best = { 0 };
	size_t n = 0, k = 0;

	for (size_t i = 0; i < h->nr; i++)
		n += h->s[i].nr;
	if (!n)
		return -ENODATA;
	sp = calloc(n, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr; i++)
		for (size_t j = 0; j < h->s[i].nr; j++) {
			const struct damos_tried_region *r = &h->s[i].r[j];

			sp[k++] = (struct span){ r->start, r->end,
				(double)r->nr_accesses * (r->end - r->start) };
		}
	qsort(sp, n, sizeof(*sp), span_cmp);
	for (size_t i = 0; i < n;) {
		struct span cur = sp[i++];

		while (i < n && sp[i].lo <= cur.hi) {
			if (sp[i].hi > cur.hi)
				cur.hi = sp[i].hi;
			cur.heat += sp[i++].heat;
		}
		if (!best.hi || cur.heat > best.heat ||
		    (cur.heat == best.heat && cur.hi - cur.lo > best.hi - best.lo))
			best = cur;
	}
	free(sp);
	h->lo = best.lo;
	h->hi = best.hi;
	return 0;
}

static uint64_t col_start(const struct heatmap *h, unsigned long j)
{
	return h->lo + (uint64_t)((unsigned __int128)(h->hi - h->lo) * j / h->cols);
}

/* Each cell: the access rate of the bytes of regions in it, averaged. */
static int fill(struct heatmap *h)
{
	uint64_t max = damon_attrs_max_nr_accesses(&h->a);
	double *wsum;

	if (h->rows > h->nr)
		h->rows = h->nr;
	/* a column a byte at most: none is empty by its width */
	if (h->cols > h->hi - h->lo)
		h->cols = h->hi - h->lo;
	h->heat = calloc(h->rows * h->cols, sizeof(*h->heat));
	h->row_us = calloc(h->rows, sizeof(*h->row_us));
	wsum = calloc(h->rows * h->cols, sizeof(*wsum));
	if (!h->heat || !h->row_us || !wsum) {
		free(wsum);
		return -ENOMEM;
	}
	for (unsigned long row = 0; row < h->rows; row++) {
		size_t first = row * h->nr / h->rows, last = (row + 1) * h->nr / h->rows;

		h->row_us[row] = h->s[first].t_us;
		for (size_t i = first; i < last; i++)
			for (size_t j = 0; j < h->s[i].nr; j++) {
				const struct damos_tried_region *r = &h->s[i].r[j];
				double rate = max ? 100.0 * r->nr_accesses / max : 0;
				uint64_t lo = r->start > h->lo ? r->start : h->lo;
				uint64_t hi = r->end < h->hi ? r->end : h->hi;
				unsigned long col;

				if (lo >= hi)
					continue;
				col = (unsigned long)((unsigned __int128)(lo - h->lo) *
						      h->cols / (h->hi - h->lo));
				for (; col < h->cols && col_start(h, col) < hi; col++) {
					uint64_t a = col_start(h, col), b = col_start(h, col + 1);
					uint64_t o = (hi < b ? hi : b) - (lo > a ? lo : a);

					if (lo >= b)
						continue;
					h->heat[row * h->cols + col] += rate * o;
					wsum[row * h->cols + col] += o;
				}
			}
	}
	h->max_heat = 0;
	for (size_t k = 0; k < h->rows * h->cols; k++) {
		h->heat[k] = wsum[k] > 0 ? h->heat[k] / wsum[k] : -1;
		if (h->heat[k] > h->max_heat)
			h->max_heat = h->heat[k];
	}
	free(wsum);
	return 0;
}

/* COLUMNS or LINES, else the terminal's, else @def */
static unsigned long term_dim(struct cli *c, const char *env, bool cols,
			      unsigned long def)
{
	const char *e = getenv(env);
	struct winsize ws;
	unsigned long v;

	if (e && !parse_count(e, 1, 100000, &v))
		return v;
	if (!ioctl(fileno(c->out), TIOCGWINSZ, &ws) && (cols ? ws.ws_col : ws.ws_row))
		return cols ? ws.ws_col : ws.ws_row;
	return def;
}

static bool want_color(struct cli *c, int color)
{
	const char *term = getenv("TERM");

	if (color != COLOR_AUTO)
		return color == COLOR_ALWAYS;
	return isatty(fileno(c->out)) && term && *term && strcmp(term, "dumb") &&
	       !getenv("NO_COLOR");
}

static bool utf8_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
	}
	return false;
}

/* dark to bright: xterm's 256 colours, and the 16 for other terminals */
static const int pal256[10] = { 236, 17, 19, 26, 31, 35, 106, 178, 208, 196 };
static const int pal16[10] = { 90, 34, 94, 36, 96, 32, 92, 33, 93, 91 };

static int level(const struct heatmap *h, double heat)
{
	int l = h->max_heat > 0 ? (int)(heat * 10 / h->max_heat) : 0;

	return l > 9 ? 9 : l;
}

/* a cell; @last: the colour in effect, set only when it changes */
static void cell(FILE *f, int l, bool color, bool c256, const char *block,
		 int *last)
{
	if (!color) {
		fputc('0' + l, f);
		return;
	}
	if (*last != l)
		fprintf(f, c256 ? "\033[38;5;%dm" : "\033[%dm",
			c256 ? pal256[l] : pal16[l]);
	*last = l;
	fputs(block, f);
}

/* "%s" clipped to @width columns (the text is ASCII) */
static void line(FILE *f, unsigned long width, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(FILE *f, unsigned long width, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strlen(buf) > width)
		buf[width] = '\0';
	fprintf(f, "%s\n", buf);
}

#define LABEL_COLS 8

static void draw_terminal(struct cli *c, const struct heatmap *h, bool color)
{
	const char *term = getenv("TERM"), *colorterm = getenv("COLORTERM");
	bool c256 = (term && strstr(term, "256")) || (colorterm && *colorterm);
	const char *block = utf8_locale() ? "\u2588" : "#";
	/* the legend within the terminal (the matrix is, unless resol says) */
	unsigned long width = term_dim(c, "COLUMNS", true, 80);
	char s1[32];

	for (unsigned long row = 0; row < h->rows; row++) {
		char lab[32];

		snprintf(lab, sizeof(lab), "%.1fs", h->row_us[row] / 1e6);
		int last = -1;

		fprintf(c->out, "%*s ", LABEL_COLS - 1, lab);
		for (unsigned long col = 0; col < h->cols; col++) {
			double v = h->heat[row * h->cols + col];

			if (v < 0) {
				fputc(' ', c->out);
				continue;
			}
			cell(c->out, level(h, v), color, c256, block, &last);
		}
		fputs(color ? "\033[0m\n" : "\n", c->out);
	}
	damos_format_size(h->hi - h->lo, s1, sizeof(s1));
	line(c->out, width, "x: address 0x%llx-0x%llx (%s), %lu columns",
	     (unsigned long long)h->lo, (unsigned long long)h->hi, s1, h->cols);
	line(c->out, width, "y: time, %zu snapshots over %.1fs, %lu rows",
	     h->nr, h->s[h->nr - 1].t_us / 1e6, h->rows);
	if (!color) {
		line(c->out, width, "0-9: access rate, 9 = %.0f%% (of the most an aggregation counts); blank: no region",
		     h->max_heat);
		return;
	}
	fputs("0% ", c->out);
	for (int l = 0, last = -1; l < 10; l++)
		cell(c->out, l, true, c256, block, &last);
	fprintf(c->out, "\033[0m %.0f%% access rate\n", h->max_heat);
}

static int write_data(const struct heatmap *h, FILE *f)
{
	fprintf(f, "# damoctl report heatmap: time (s), address, access rate (%% of the most an aggregation counts; NaN: no region there)\n"
		"# address 0x%llx-0x%llx, %lu columns; %zu snapshots, %lu rows\n",
		(unsigned long long)h->lo, (unsigned long long)h->hi, h->cols,
		h->nr, h->rows);
	for (unsigned long row = 0; row < h->rows; row++) {
		for (unsigned long col = 0; col < h->cols; col++) {
			double v = h->heat[row * h->cols + col];

			fprintf(f, "%.6f %llu ", h->row_us[row] / 1e6,
				(unsigned long long)col_start(h, col));
			if (v < 0)
				fputs("NaN\n", f);
			else
				fprintf(f, "%.3f\n", v);
		}
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* a file name in gnuplot's single quotes: a quote is doubled */
static void gp_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/*
 * gnuplot draws the image into a temporary file beside FILE, renamed over
 * it when gnuplot succeeded: no half-drawn image is left.
 */
static int draw_file(struct cli *c, const struct heatmap *h, const char *data)
{
	/* a row from its time to the next's, a column from its start */
	double t_row = (h->rows > 1 ? (double)(h->row_us[h->rows - 1] -
					       h->row_us[0]) / (h->rows - 1) :
			h->a.aggr_us) / 1e6;
	double t_end = h->row_us[h->rows - 1] / 1e6 + t_row;
	double col_bytes = (double)(h->hi - h->lo) / h->cols;
	uint64_t ytic = 1;
	char *tmp = NULL, *errname = NULL;
	struct sigaction pipe_ign = { .sa_handler = SIG_IGN }, pipe_old;
	int in[2] = { -1, -1 }, errfd = -1, fd, st = 0, status = EXIT_FAIL;
	FILE *f = NULL;
	pid_t pid;

	/* ticks at a power of two: 4 to 8 of them */
	while (ytic < (h->hi - h->lo) / 8)
		ytic <<= 1;
	fd = beside_tmp(h->output, &tmp);
	if (fd < 0) {
		status = cli_error(c, EXIT_FAIL, "--output %s: %s", h->output,
				   strerror(errno));
		goto out;
	}
	close(fd);
	errname = tmp_name("damoctl-gnuplot");
	errfd = errname ? mkstemp(errname) : -1;
	if (errfd >= 0)
		unlink(errname);
	if (errfd < 0 || pipe(in))
		goto oom;
	pid = fork();
	if (pid < 0)
		goto oom;
	if (!pid) {
		dup2(in[0], 0);
		dup2(errfd, 1);
		dup2(errfd, 2);
		close(in[0]);
		close(in[1]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		dprintf(2, "cannot run gnuplot: %s\n", strerror(errno));
		_exit(127);
	}
	close(in[0]);
	in[0] = -1;
	f = fdopen(in[1], "w");
	if (!f)
		goto oom;
	in[1] = -1;
	/* a gnuplot that ends early fails below, not damoctl by SIGPIPE */
	sigaction(SIGPIPE, &pipe_ign, &pipe_old);
	fprintf(f, "set terminal %s size %lu,%lu\nset output ",
		image_kind(h->output) == 'p' ? "png" : "svg", h->width, h->height);
	gp_quoted(f, tmp);
	fprintf(f, "\nset title 'damoctl report heatmap: access rate over address and time'\n"
		"set xlabel 'Time (s)'\n"
		"set ylabel 'Address (bytes from 0x%llx)'\n"
		"set format y '%%.0b%%BB'\n"
		"set ytics %llu\n"
		"set cblabel 'Access rate (%%)'\n"
		"set cbrange [0:100]\n"
		"set key off\n"
		"set xrange [0:%f]\nset yrange [0:%llu]\n"
		"plot ", (unsigned long long)h->lo, (unsigned long long)ytic,
		t_end, (unsigned long long)(h->hi - h->lo));
	gp_quoted(f, data);
	fprintf(f, " using ($1 + %f):($2 - %llu + %f):3 with image\n",
		t_row / 2, (unsigned long long)h->lo, col_bytes / 2);
	fclose(f);
	sigaction(SIGPIPE, &pipe_old, NULL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char buf[4096], *last = buf;
		off_t size = lseek(errfd, 0, SEEK_END);
		ssize_t n = pread(errfd, buf, sizeof(buf) - 1,
				  size > (off_t)sizeof(buf) - 1 ?
				  size - (off_t)sizeof(buf) + 1 : 0);

		/* gnuplot's reason is its last line; it echoes the command first */
		buf[n > 0 ? n : 0] = '\0';
		for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
			if (l[strspn(l, " \t")])
				last = l + strspn(l, " \t");
		if (last == buf && !buf[strspn(buf, " \t")])
			*buf = '\0';
		status = cli_error(c, EXIT_FAIL, "gnuplot failed (%s %d)%s%s",
				   WIFEXITED(st) ? "status" : "signal",
				   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
				   *last ? ": " : "", last);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, h->output)) {
		status = cli_error(c, EXIT_FAIL, "--output %s: %s", h->output,
				   strerror(errno));
		unlink(tmp);
		goto out;
	}
	status = EXIT_OK;
	goto out;
oom:
	status = cli_error(c, EXIT_FAIL, "running gnuplot: %s", strerror(errno));
	if (tmp)
		unlink(tmp);
out:
	if (in[0] >= 0)
		close(in[0]);
	if (in[1] >= 0)
		close(in[1]);
	if (errfd >= 0)
		close(errfd);
	free(errname);
	free(tmp);
	return status;
}

static void print_json(struct cli *c, const struct heatmap *h, const char *source)
{
	struct json_object *o = json_object_new_object(), *t, *ad, *m;

	json_object_object_add(o, "source", json_str(source));
	json_object_object_add(o, "sample_us", json_u64(h->a.sample_us));
	json_object_object_add(o, "aggr_us", json_u64(h->a.aggr_us));
	json_object_object_add(o, "max_nr_accesses",
			       json_u64(damon_attrs_max_nr_accesses(&h->a)));
	json_object_object_add(o, "nr_snapshots", json_u64(h->nr));
	json_object_object_add(o, "address_start", json_u64(h->lo));
	json_object_object_add(o, "address_end", json_u64(h->hi));
	json_object_object_add(o, "rows", json_u64(h->rows));
	json_object_object_add(o, "columns", json_u64(h->cols));
	t = json_object_new_array();
	for (unsigned long row = 0; row < h->rows; row++)
		json_object_array_add(t, json_u64(h->row_us[row]));
	json_object_object_add(o, "time_us", t);
	ad = json_object_new_array();
	for (unsigned long col = 0; col <= h->cols; col++)
		json_object_array_add(ad, json_u64(col_start(h, col)));
	json_object_object_add(o, "address", ad);
	m = json_object_new_array();
	for (unsigned long row = 0; row < h->rows; row++) {
		struct json_object *r = json_object_new_array();

		for (unsigned long col = 0; col < h->cols; col++) {
			double v = h->heat[row * h->cols + col];

			json_object_array_add(r, v < 0 ? NULL :
					      json_object_new_double(
						      (double)(long long)(v * 1000 + 0.5) / 1000));
		}
		json_object_array_add(m, r);
	}
	json_object_object_add(o, "access_rate_percent", m);
	if (h->output)
		json_object_object_add(o, "output", json_str(h->output));
	if (h->data)
		json_object_object_add(o, "data", json_str(h->data));
	json_print(c->out, o);
}

int report_heatmap(struct cli *c, int argc, char **argv)
{
	struct heatmap h = { .o = { .sz = sizeof(h.o) }, .duration_us = 10000000 };
	char *tmpdata = NULL;
	const char *data = NULL;
	bool color = false, term = false;
	struct damon_ctx *d;
	FILE *f = NULL;
	int err, status;

	status = parse_args(c, &h, argc, argv);
	if (status)
		return status;
	if (h.output && !have_gnuplot())
		return cli_error(c, EXIT_FAIL,
				 "--output %s: gnuplot draws the image and is not on PATH (Debian: apt install gnuplot-nox); the terminal heatmap needs none",
				 h.output);
	if (!h.width) {
		h.width = 800;
		h.height = 600;
	}
	term = !c->json && !h.output && !h.data;
	if (term) {
		color = want_color(c, h.color);
		if (!h.cols) {
			unsigned long w = term_dim(c, "COLUMNS", true, 80);

			h.cols = w > LABEL_COLS + 10 ? w - LABEL_COLS : 10;
		}
		if (!h.rows) {
			unsigned long l = term_dim(c, "LINES", false, 24);

			h.rows = l > 8 ? l - 4 : 4;
		}
	} else {
		if (!h.cols)
			h.cols = 200;
		if (!h.rows)
			h.rows = 10000;
	}
	if (h.input) {
		/* a record: no kernel is asked anything */
		status = input(c, &h);
		if (status)
			return status;
		d = NULL;
		err = 0;
	} else {
		d = cli_open(c);
		if (!d)
			return EXIT_FAIL;
		err = damon_attrs_read(d, &h.a);
		if (!err)
			err = record(c, d, &h);
	}
	if (err) {
		free_snaps(&h);
		return cli_close(c, d, err == -ENOMEM ?
				 cli_error(c, EXIT_FAIL, "out of memory") :
				 cli_lib_error(c, err));
	}
	err = h.hi ? 0 : pick_range(&h);
	if (!err)
		err = fill(&h);
	if (err) {
		free_snaps(&h);
		return cli_close(c, d, cli_error(c, EXIT_FAIL, "%s", err == -ENODATA ?
						 "the snapshots listed no region" :
						 strerror(-err)));
	}
	status = EXIT_OK;
	if (h.data || h.output) {
		int fd;

		/* --data FILE: written beside it, renamed over it when whole */
		if (h.data) {
			fd = beside_tmp(h.data, &tmpdata);
		} else {
			tmpdata = tmp_name("damoctl-heatmap");
			fd = tmpdata ? mkstemp(tmpdata) : -1;
		}
		data = h.data ? h.data : "a temporary file";
		errno = 0;
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f && fd >= 0)
			close(fd);
		if (!f || write_data(&h, f))
			status = cli_error(c, EXIT_FAIL, "%s: %s", data,
					   strerror(errno ? errno : EIO));
		if (f && fclose(f) && !status)
			status = cli_error(c, EXIT_FAIL, "%s: %s", data, strerror(errno));
	}
	if (!status && h.output)
		status = draw_file(c, &h, tmpdata);
	if (tmpdata && !status && h.data && rename(tmpdata, h.data))
		status = cli_error(c, EXIT_FAIL, "%s: %s", h.data, strerror(errno));
	if (tmpdata) {
		if (status || !h.data)
			unlink(tmpdata);
		free(tmpdata);
	}
	if (!status && c->json)
		print_json(c, &h, h.input ? "record" : h.o.source == DAMON_SNAPSHOT_TRACE ||
			   damos_has(d, DAMOS_FEAT_TRIED_REGIONS) != 1 ||
			   damon_get_iface(d) != DAMON_IFACE_SYSFS ? "trace" : "tried");
	else if (!status && term)
		draw_terminal(c, &h, color);
	else if (!status && h.output)
		fprintf(c->out, "%s: %lux%lu pixels, %lu rows x %lu columns of %zu snapshots\n",
			h.output, h.width, h.height, h.rows, h.cols, h.nr);
	else if (!status)
		fprintf(c->out, "%s: %lu rows x %lu columns of %zu snapshots\n",
			h.data, h.rows, h.cols, h.nr);
	free_snaps(&h);
	return cli_close(c, d, status);
}
