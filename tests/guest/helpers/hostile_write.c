// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * hostile_write: write exactly the bytes, calls and offsets a test asks for
 * into a kernel file, count what the kernel did with them, and check that a
 * rejected write changed nothing.  Used by tests/guest/hostile_input.sh in
 * the guest; a shell's echo cannot split a write, write at an offset, send a
 * NUL or race four writers.
 *
 *   hostile_write [OPTIONS] FILE [CONTENT...]
 *
 * CONTENT is C-escaped (\n \t \r \0 \\ \xHH); with none, stdin is read once.
 * Every repetition opens FILE, writes each CONTENT and closes it again.
 *
 *   -R MIN[-MAX]  instead of CONTENT: MIN..MAX random bytes, new every write
 *   -A ALPHABET   random bytes are taken from ALPHABET (C-escaped) only
 *   -M K          mutate K random bytes of each CONTENT before every write
 *                 (replaced by random bytes, from ALPHABET if given)
 *   -S SEED       seed of the random bytes (default 1; each process adds its
 *                 index)
 *   -c CHUNK      write in pieces of CHUNK bytes, all on the same open file
 *   -o OFFSET     start writing at OFFSET (pwrite)
 *   -n COUNT      repeat COUNT times (default 1)
 *   -t SECONDS    repeat until SECONDS have passed instead
 *   -p PROCS      run PROCS processes doing the same (counts are summed)
 *   -r            read FILE instead of writing it (a concurrent reader)
 *   -k KEEP       after every write that failed (or with -I, every write),
 *                 compare KEEP to what it held before; a difference counts
 *                 as lost.  After an accepted valid write KEEP is read
 *                 again.  Not with -p.
 *   -F N          compare only the first N fields of each line of KEEP
 *                 (18 for dbgfs "schemes": drops the statistics)
 *   -I            the contents are invalid: an accepted write is counted as
 *                 accepted_invalid
 *   -V dbgfs[:MAX] classify each content (the first chunk with -c) as a dbgfs
 *                 "schemes" write, actions up to MAX (default 7) valid:
 *                 valid, invalid or unknown (rules the
 *                 strict series may read either way: leading zeros, '+',
 *                 CR/VT/FF, blank lines between schemes, NUL at the end,
 *                 empty writes).  Valid writes that are rejected are
 *                 counted as rejected_valid, invalid ones accepted as
 *                 accepted_invalid.
 *   -J            the kernel joins the writes to one open file into one input
 *                 (kernel patch "join the writes to one open 'schemes' or
 *                 'init_regions'"), each write applied as if it ended the
 *                 input: a -c write in pieces is unknown (each piece that
 *                 makes a valid input so far is taken, the first that does
 *                 not fails), and what it leaves is the new state
 *   -v            print each write's result to stderr
 *
 * Output, one line on stdout:
 *   writes=N ok=N failed=N short=N lost=N accepted_invalid=N rejected_valid=N
 *   valid=N invalid=N unknown=N errors=EINVAL:3,...
 * Exit status 0, or 2 on a usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ERRNO 256

struct counts {
	long writes, ok, failed, shorts, lost, accepted_invalid;
	long rejected_valid, valid, invalid, unknown;
	long err[MAX_ERRNO];
};

struct content {
	char *buf;
	size_t len;
};

static const char *file, *keep;
static struct content *contents;
static int nr_contents, keep_fields, invalid, verbose, reader, oracle, joined;
static unsigned long max_action = 7;
static size_t rnd_min, rnd_max, chunk, mutations;
static struct content alphabet;
static long long offset;
static int has_offset;
static uint64_t seed = 1;
static struct counts *total;

static void die(const char *msg)
{
	fprintf(stderr, "hostile_write: %s\n", msg);
	exit(2);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static struct content unescape(const char *s)
{
	struct content c = { malloc(strlen(s) + 1), 0 };

	if (!c.buf)
		die("out of memory");
	while (*s) {
		int ch = (unsigned char)*s++;

		if (ch == '\\' && *s) {
			ch = (unsigned char)*s++;
			switch (ch) {
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'r': ch = '\r'; break;
			case '0': ch = '\0'; break;
			case 'x':
				if (hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
					ch = hexval(s[0]) * 16 + hexval(s[1]);
					s += 2;
				}
				break;
			default: break;	/* \\ and anything else: itself */
			}
		}
		c.buf[c.len++] = (char)ch;
	}
	return c;
}

static struct content slurp(int fd)
{
	struct content c = { NULL, 0 };
	size_t cap = 0;
	ssize_t n;

	for (;;) {
		if (c.len == cap) {
			cap = cap ? cap * 2 : 1 << 20;	/* dbgfs: one read */
			c.buf = realloc(c.buf, cap);
			if (!c.buf)
				die("out of memory");
		}
		n = read(fd, c.buf + c.len, cap - c.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		c.len += (size_t)n;
	}
	return c;
}

/* KEEP's content, the first keep_fields fields of each line if set. */
static char *snapshot(void)
{
	int fd = open(keep, O_RDONLY);
	struct content c;
	char *out, *o, *line, *save = NULL;

	if (fd < 0)
		return strdup("<unreadable>");
	c = slurp(fd);
	close(fd);
	c.buf = realloc(c.buf, c.len + 1);
	if (!c.buf)
		die("out of memory");
	c.buf[c.len] = '\0';
	if (!keep_fields)
		return c.buf;
	o = out = calloc(1, c.len + 2);
	if (!out)
		die("out of memory");
	for (line = strtok_r(c.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok, *s2 = NULL;
		int f = 0;

		for (tok = strtok_r(line, " \t", &s2); tok && f < keep_fields;
		     tok = strtok_r(NULL, " \t", &s2), f++)
			o += sprintf(o, "%s%s", f ? " " : "", tok);
		*o++ = '\n';
	}
	free(c.buf);
	return out;
}

enum { UNKNOWN = -1, INVALID = 0, VALID = 1 };

/*
 * What the strict dbgfs "schemes" parser must do with @b: one scheme a line,
 * exactly 18 decimal numbers within their fields (u32 for accesses, ages
 * and weights, action 0..7, metric 0..1), or 23 (the 5 statistics that
 * reading the file shows, any u64, ignored); an upper bound of the access
 * pattern (max size, max accesses, max age) above its range is its largest
 * value; min <= max, watermarks high >= mid >= low, at most 256 schemes;
 * whitespace only removes every scheme.
 */
static int classify_lines(const char *b, size_t len)
{
	static const int u32_field[18] = {
		[2] = 1, [3] = 1, [4] = 1, [5] = 1, [10] = 1, [11] = 1, [12] = 1,
	};
	static const int upper_bound[18] = { [1] = 1, [3] = 1, [5] = 1 };
	const char *nul = memchr(b, '\0', len), *end = b + len, *line;
	int nr = 0, blank_seen = 0;

	if (!len)
		return UNKNOWN;
	if (nul) {
		for (const char *p = nul; p < end; p++)
			if (*p)
				return INVALID;	/* junk after a NUL */
		return UNKNOWN;
	}
	for (const char *p = b; p < end; p++)
		if (*p == '\r' || *p == '\v' || *p == '\f')
			return UNKNOWN;
	if (strspn(b, " \t\n") == len)
		return VALID;
	for (line = b; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		uint64_t v[23];
		int n = 0;

		if (!eol)
			eol = end;
		for (const char *p = line; p < eol;) {
			uint64_t x = 0;
			const char *t;
			int over = 0;

			while (p < eol && (*p == ' ' || *p == '\t'))
				p++;
			if (p == eol)
				break;
			t = p;
			if (*t == '+')
				return UNKNOWN;
			for (; p < eol && *p != ' ' && *p != '\t'; p++) {
				if (*p < '0' || *p > '9')
					return INVALID;
				if (__builtin_mul_overflow(x, 10, &x) ||
				    __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x))
					over = 1;
			}
			if (p - t > 1 && *t == '0')
				return UNKNOWN;
			if (n == 23)
				return INVALID;
			if (over) {
				if (n >= 18 || !upper_bound[n])
					return INVALID;
				x = UINT64_MAX;
			}
			v[n++] = x;
		}
		if (!n) {
			blank_seen = 1;
		} else {
			if (blank_seen)
				return UNKNOWN;	/* a blank line between schemes */
			if (n != 18 && n != 23)
				return INVALID;
			for (int f = 0; f < 18; f++) {
				if (!u32_field[f] || v[f] <= 4294967295ULL)
					continue;
				if (!upper_bound[f])
					return INVALID;
				v[f] = 4294967295ULL;
			}
			if (v[6] > max_action || v[13] > 1 || v[0] > v[1] ||
			    v[2] > v[3] || v[4] > v[5] || v[15] < v[16] ||
			    v[16] < v[17])
				return INVALID;
			nr++;
		}
		line = eol + 1;
	}
	/* a trailing newline leaves one empty "line": not a blank line */
	return nr > 256 ? INVALID : VALID;
}

/*
 * A last line without a newline is judged as any other: the kernel applies
 * each write as if it ended the input (with -J, the joined input so far).
 */
static int classify_dbgfs(const char *b, size_t len)
{
	return classify_lines(b, len);
}

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64*: reproducible from -S, good enough for garbage */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void count_err(struct counts *c, int e)
{
	__atomic_fetch_add(&c->err[e > 0 && e < MAX_ERRNO ? e : 0], 1,
			   __ATOMIC_RELAXED);
}

/* One open, the content in chunks, one close.  Return 0 or an errno. */
static int write_once(const char *buf, size_t len, long *shorts)
{
	size_t done = 0, step = chunk ? chunk : len;
	int fd = open(file, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	while (done < len || (len == 0 && done == 0)) {
		size_t want = len - done < step ? len - done : step;
		ssize_t n;

		if (has_offset)
			n = pwrite(fd, buf + done, want, offset + (off_t)done);
		else
			n = write(fd, buf + done, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		if ((size_t)n < want)
			(*shorts)++;
		if (n == 0)
			break;
		done += (size_t)n;
		if (len == 0)
			break;
	}
	if (close(fd) && !err)
		err = errno;
	return err;
}

static char rand_byte(uint64_t *rs)
{
	if (alphabet.len)
		return alphabet.buf[next_rand(rs) % alphabet.len];
	return (char)next_rand(rs);
}

static int read_once(long *shorts)
{
	int fd = open(file, O_RDONLY);
	char buf[65536];
	ssize_t n;

	(void)shorts;
	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	n = n < 0 ? errno : 0;
	close(fd);
	return (int)n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void worker(int idx, long count, double seconds)
{
	uint64_t rs = seed + (uint64_t)idx * 0x9e3779b97f4a7c15ULL;
	struct content rnd = { NULL, 0 }, mut = { NULL, 0 };
	double end = now() + seconds;
	char *ref = keep ? snapshot() : NULL;
	long shorts = 0;

	if (!rs)
		rs = 1;
	if (rnd_max) {
		rnd.buf = malloc(rnd_max);
		if (!rnd.buf)
			die("out of memory");
	}
	if (mutations) {
		size_t max = 0;

		for (int k = 0; k < nr_contents; k++)
			if (contents[k].len > max)
				max = contents[k].len;
		mut.buf = malloc(max + 1);
		if (!mut.buf)
			die("out of memory");
	}
	for (long i = 0; seconds > 0 ? now() < end : i < count; i++) {
		for (int k = 0; k < (rnd_max ? 1 : nr_contents); k++) {
			struct content *c = &contents[k];
			int err, cls = invalid ? INVALID : UNKNOWN;

			if (rnd_max) {
				rnd.len = rnd_min + next_rand(&rs) %
					  (rnd_max - rnd_min + 1);
				for (size_t j = 0; j < rnd.len; j++)
					rnd.buf[j] = rand_byte(&rs);
				c = &rnd;
			} else if (mutations && c->len) {
				memcpy(mut.buf, c->buf, c->len);
				mut.len = c->len;
				for (size_t j = 0; j < mutations; j++)
					mut.buf[next_rand(&rs) % mut.len] =
						rand_byte(&rs);
				c = &mut;
			}
			if (oracle && !reader)
				cls = classify_dbgfs(c->buf, chunk && !joined &&
						     chunk < c->len ?
						     chunk : c->len);
			if (oracle && chunk && chunk < c->len &&
			    (joined || cls == VALID))
				cls = UNKNOWN;	/* taken up to a piece */
			if (oracle)
				__atomic_fetch_add(cls == VALID ? &total->valid :
						   cls == INVALID ? &total->invalid :
						   &total->unknown, 1, __ATOMIC_RELAXED);
			err = reader ? read_once(&shorts) :
				       write_once(c->buf, c->len, &shorts);
			__atomic_fetch_add(&total->writes, 1, __ATOMIC_RELAXED);
			if (err) {
				__atomic_fetch_add(&total->failed, 1,
						   __ATOMIC_RELAXED);
				count_err(total, err);
				if (cls == VALID)
					__atomic_fetch_add(&total->rejected_valid,
							   1, __ATOMIC_RELAXED);
			} else {
				__atomic_fetch_add(&total->ok, 1,
						   __ATOMIC_RELAXED);
				if (cls == INVALID)
					__atomic_fetch_add(&total->accepted_invalid,
							   1, __ATOMIC_RELAXED);
			}
			if (verbose)
				fprintf(stderr, "write %ld/%d (%zu bytes, %s): %s\n",
					i, k, c->len,
					cls == VALID ? "valid" : cls == INVALID ?
					"invalid" : "unknown",
					err ? strerror(err) : "ok");
			if (!ref)
				continue;
			/*
			 * A split write whose first piece is valid (or may be)
			 * was taken by the kernel up to there: a new state,
			 * not a lost one.
			 */
			if (oracle && chunk && chunk < c->len &&
			    cls != INVALID) {
				free(ref);
				ref = snapshot();
				continue;
			}
			if (err || cls == INVALID) {
				char *now_s = snapshot();

				if (strcmp(ref, now_s)) {
					total->lost++;
					fprintf(stderr,
						"hostile_write: %s changed after %s write %ld of %zu bytes\n--- before\n%s--- after\n%s",
						keep, err ? "a rejected" : "an accepted invalid",
						i, c->len, ref, now_s);
					free(ref);
					ref = now_s;
				} else {
					free(now_s);
				}
			} else {
				free(ref);
				ref = snapshot();
			}
		}
	}
	__atomic_fetch_add(&total->shorts, shorts, __ATOMIC_RELAXED);
	free(ref);
	free(rnd.buf);
	free(mut.buf);
}

int main(int argc, char **argv)
{
	long count = 1, procs = 1;
	double seconds = 0;
	int opt, first = 1;

	while ((opt = getopt(argc, argv, "+R:A:M:S:c:o:n:t:p:rk:F:IV:Jv")) != -1) {
		switch (opt) {
		case 'R': {
			char *dash;

			rnd_min = strtoul(optarg, &dash, 0);
			rnd_max = *dash == '-' ? strtoul(dash + 1, NULL, 0) :
						 rnd_min;
			if (!rnd_max || rnd_max < rnd_min)
				die("-R MIN[-MAX] with 0 < MIN <= MAX");
			break;
		}
		case 'A': alphabet = unescape(optarg); break;
		case 'M': mutations = strtoul(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'c': chunk = strtoul(optarg, NULL, 0); break;
		case 'o':
			offset = strtoll(optarg, NULL, 0);
			has_offset = 1;
			break;
		case 'n': count = strtol(optarg, NULL, 0); break;
		case 't': seconds = strtod(optarg, NULL); break;
		case 'p': procs = strtol(optarg, NULL, 0); break;
		case 'r': reader = 1; break;
		case 'k': keep = optarg; break;
		case 'F': keep_fields = atoi(optarg); break;
		case 'I': invalid = 1; break;
		case 'V':
			if (strncmp(optarg, "dbgfs", 5) ||
			    (optarg[5] && optarg[5] != ':'))
				die("-V knows only dbgfs[:MAX_ACTION]");
			if (optarg[5])
				max_action = strtoul(optarg + 6, NULL, 10);
			oracle = 1;
			break;
		case 'J': joined = 1; break;
		case 'v': verbose = 1; break;
		default:
			die("usage: hostile_write [-R MIN[-MAX]] [-A ALPHABET] [-M K] [-S SEED] [-c CHUNK] [-o OFFSET] [-n COUNT|-t SECONDS] [-p PROCS] [-r] [-k KEEP [-F N]] [-I|-V dbgfs[:MAX]] [-J] [-v] FILE [CONTENT...]");
		}
	}
	if (optind >= argc)
		die("no FILE");
	if (keep && procs > 1)
		die("-k cannot check a file that several processes write");
	file = argv[optind++];
	nr_contents = argc - optind;
	contents = calloc(nr_contents ? nr_contents : 1, sizeof(*contents));
	if (!contents)
		die("out of memory");
	for (int i = 0; i < nr_contents; i++)
		contents[i] = unescape(argv[optind + i]);
	if (!nr_contents && !rnd_max && !reader) {
		contents[0] = slurp(0);
		nr_contents = 1;
	}
	if (!nr_contents)
		nr_contents = 1;	/* -r or -R: one slot */
	total = mmap(NULL, sizeof(*total), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (total == MAP_FAILED)
		die("mmap failed");

	if (procs <= 1) {
		worker(0, count, seconds);
	} else {
		for (long p = 0; p < procs; p++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork failed");
			if (!pid) {
				worker((int)p, count, seconds);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
	}

	printf("writes=%ld ok=%ld failed=%ld short=%ld lost=%ld accepted_invalid=%ld rejected_valid=%ld valid=%ld invalid=%ld unknown=%ld errors=",
	       total->writes, total->ok, total->failed, total->shorts,
	       total->lost, total->accepted_invalid, total->rejected_valid,
	       total->valid, total->invalid, total->unknown);
	for (int e = 0; e < MAX_ERRNO; e++) {
		const char *name;

		if (!total->err[e])
			continue;
		name = e ? strerrorname_np(e) : "unknown";
		printf("%s%s:%ld", first ? "" : ",", name ? name : "E?",
		       total->err[e]);
		first = 0;
	}
	printf("%s\n", first ? "none" : "");
	return 0;
}
