/* prog.c - program support: messages, options, numbers, outputs, JSON. */
#include "prog/prog.h"
#include "base/atomic.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lzma.h>
#include <zlib.h>

const char *gc_progname = "gc";
int gc_prog_quiet;
static char *cmdline;

/* ---- messages --------------------------------------------------------- */

static void vmsg(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", gc_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void gc_die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(status);
}

void gc_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void gc_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", gc_progname);
	exit(GC_EXIT_USAGE);
}

/* ---- command line ----------------------------------------------------- */

static int needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_./=:,+@%", *s))
			return 1;
	return 0;
}

void gc_prog_init(const char *name, int argc, char **argv)
{
	gc_progname = name;
	signal(SIGPIPE, SIG_DFL);
	size_t n = strlen(name) + 1;
	for (int i = 1; i < argc; i++)
		n += 4 * strlen(argv[i]) + 3;
	cmdline = malloc(n + 1);
	if (!cmdline)
		gc_die(GC_EXIT_DATA, "out of memory");
	char *p = cmdline + sprintf(cmdline, "%s", name);
	for (int i = 1; i < argc; i++) {
		*p++ = ' ';
		if (!needs_quotes(argv[i])) {
			p += sprintf(p, "%s", argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *s = argv[i]; *s; s++) {
			if (*s == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else if (*s == '\n') {
				*p++ = ' ';
			} else {
				*p++ = *s;
			}
		}
		*p++ = '\'';
	}
	*p = 0;
}

const char *gc_cmdline(void)
{
	return cmdline ? cmdline : gc_progname;
}

int gc_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *longopts)
{
	static char buf[128];
	if (buf[0] != ':')
		snprintf(buf, sizeof buf, ":%s", shortopts);
	opterr = 0;
	int c = getopt_long(argc, argv, buf, longopts, NULL);
	if (c == '?') {
		if (optopt && optopt < 0x100)
			gc_usage_error("unknown option '-%c'", optopt);
		gc_usage_error("unknown option '%s'", argv[optind - 1]);
	}
	if (c == ':') {
		/* A long option is named as typed (optopt holds its short
		 * letter when it has one). */
		const char *typed = optind > 0 && optind <= argc ? argv[optind - 1] : "";
		if (strncmp(typed, "--", 2) == 0)
			gc_usage_error("option '%s' needs a value", typed);
		if (optopt && optopt < 0x100)
			gc_usage_error("option '-%c' needs a value", optopt);
		gc_usage_error("option '%s' needs a value", argv[optind - 1]);
	}
	return c;
}

static int progress_always; /* --progress=always (progress below) */

int gc_common_option(gc_common *c, int opt, const char *arg, const char *help)
{
	switch (opt) {
	case 'h':
		fputs(help, stdout);
		gc_close_stdout();
		exit(0);
	case 'V':
		printf("%s (gc) %s\n", gc_progname, GC_VERSION_STRING);
		printf("stream format: reads %d.x, writes %d.%d (%d.%d with reuse distances, "
		       "%d.%d with compute fields)\n", GC_STREAM_MAJOR, GC_STREAM_MAJOR,
		       GC_STREAM_MINOR, GC_STREAM_MAJOR, GC_STREAM_MINOR_DISTANCE, GC_STREAM_MAJOR,
		       GC_STREAM_MINOR_COMPUTE);
		printf("zlib %s\n", zlibVersion());
		printf("liblzma %s\n", lzma_version_string());
		gc_close_stdout();
		exit(0);
	case 'q': c->quiet = gc_prog_quiet = 1; c->verbose = 0; return 1;
	case 'v': c->verbose++; c->quiet = gc_prog_quiet = 0; return 1;
	case 'o': c->out = arg; return 1;
	case 'z': c->gzip = 1; return 1;
	case GC_OPT_STATS: c->stats = arg; return 1;
	case GC_OPT_GPU: c->gpu = arg; return 1;
	case GC_OPT_FORCE: c->force = 1; return 1;
	case GC_OPT_REPORT: c->report = arg; return 1;
	case GC_OPT_PROGRESS:
		/* --progress: the first stage of a pipeline (its input size known)
		 * draws; --progress=always: every stage; never: none. */
		if (!arg || strcmp(arg, "auto") == 0)
			c->progress = 1;
		else if (strcmp(arg, "always") == 0)
			c->progress = 2;
		else if (strcmp(arg, "never") == 0)
			c->progress = 0;
		else
			gc_usage_error("--progress: '%s' is not auto, always or never", arg);
		progress_always = c->progress == 2;
		return 1;
	case GC_OPT_LIST_GPUS: gc_gpu_list_exit();
	}
	return 0;
}

const char *gc_one_input(int argc, char **argv)
{
	if (optind < argc - 1)
		gc_usage_error("one input at most (got '%s' and '%s')", argv[optind],
			       argv[optind + 1]);
	return optind < argc ? argv[optind] : "-";
}

/* ---- numbers ---------------------------------------------------------- */

uint64_t gc_num(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	const char *s = arg;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		/* strtoull(base 16) would take a second prefix: 0x0x10. */
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			gc_usage_error("%s: '%s' is not a number", opt, arg);
	}
	if (!((*s >= '0' && *s <= '9') || (base == 16 && strchr("abcdefABCDEF", *s) && *s)))
		gc_usage_error("%s: '%s' is not a number", opt, arg);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, base);
	if (errno == ERANGE)
		gc_usage_error("%s: '%s' is too large", opt, arg);
	unsigned mul = 0;
	if (*end && base == 10) {
		switch (*end) {
		case 'k': case 'K': mul = 10; break;
		case 'm': case 'M': mul = 20; break;
		case 'g': case 'G': mul = 30; break;
		default: gc_usage_error("%s: '%s' is not a number", opt, arg);
		}
		end++;
	}
	if (*end)
		gc_usage_error("%s: '%s' is not a number", opt, arg);
	if (mul && v > (ULLONG_MAX >> mul))
		gc_usage_error("%s: '%s' is too large", opt, arg);
	v <<= mul;
	if (v < min || v > max)
		gc_usage_error("%s: %llu is out of range (%llu to %llu)", opt, v,
			       (unsigned long long)min, (unsigned long long)max);
	return v;
}

double gc_real(const char *opt, const char *arg, double min, double max)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end || errno == ERANGE || isnan(v))
		gc_usage_error("%s: '%s' is not a number", opt, arg);
	if (v < min || v > max)
		gc_usage_error("%s: %g is out of range (%g to %g)", opt, v, min, max);
	return v;
}

int gc_choose(const char *opt, const char *arg, const char *a, const char *b)
{
	if (strcmp(arg, a) == 0)
		return 0;
	if (strcmp(arg, b) != 0)
		gc_usage_error("%s: '%s' is not %s or %s", opt, arg, a, b);
	return 1;
}

int gc_kernel_boundary(const char *arg)
{
	return gc_choose("--kernel-boundary", arg, "flush", "keep") == 0;
}

/* ---- streams ---------------------------------------------------------- */

gc_reader *gc_open_stream(const char *path)
{
	gc_reader *r = gc_reader_open(path);
	if (!r)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (gc_reader_failed(r))
		gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
	return r;
}

void gc_require_kind(const gc_reader *r, int kind)
{
	int k = gc_reader_header(r)->kind;
	if (k != kind)
		gc_die(GC_EXIT_DATA, "%s: %s reads %s; this stream holds %s",
		       gc_reader_name(r), gc_progname, gc_kind_name(kind), gc_kind_name(k));
}

__attribute__((format(printf, 4, 0)))
static _Noreturn void die_record(const gc_reader *r, gc_writer *w, uint64_t back,
				 const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (w)
		gc_writer_free(w);
	/* every record is record_size bytes: record N ends back records
	 * before the bytes taken */
	uint64_t n = gc_reader_records(r) - back, rs = gc_reader_header(r)->record_size;
	gc_die(GC_EXIT_DATA, "%s: record %llu (offset %llu): %s", gc_reader_name(r),
	       (unsigned long long)n, (unsigned long long)(gc_reader_bytes(r) - (back + 1) * rs),
	       msg);
}

void gc_die_record(const gc_reader *r, gc_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die_record(r, w, 0, fmt, ap);
}

void gc_die_record_back(const gc_reader *r, gc_writer *w, uint64_t back, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die_record(r, w, back, fmt, ap);
}

gc_writer *gc_open_output(const gc_common *c, const gc_header *h)
{
	if (c->emit_none)
		return NULL;
	gc_writer *w = gc_writer_open(c->out, h, (c->gzip ? GC_W_GZIP : 0) |
					       (c->force ? GC_W_FORCE : 0));
	if (!w)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (gc_writer_failed(w))
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	return w;
}

void gc_close_output(gc_writer *w)
{
	if (!w)
		return;
	if (gc_writer_close(w) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	gc_writer_free(w);
}

void gc_close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		gc_die(GC_EXIT_DATA, "stdout: write error: %s", strerror(errno));
	if (fclose(stdout) != 0)
		gc_die(GC_EXIT_DATA, "stdout: write error: %s", strerror(errno));
}

FILE *gc_open_text(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return stdout;
	/* Under a temporary name until gc_close_text (base/atomic.h). */
	int fd = gc_atomic_open(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		gc_die(GC_EXIT_DATA, "%s: %s", path, strerror(errno));
	return f;
}

void gc_close_text(FILE *f, const char *path)
{
	if (f == stdout) {
		gc_close_stdout();
		return;
	}
	int fd = fileno(f);
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		gc_atomic_discard(fd);
		gc_die(GC_EXIT_DATA, "%s: write error: %s", path, strerror(errno));
	}
	if (gc_atomic_commit(fd) < 0)
		gc_die(GC_EXIT_DATA, "%s: rename: %s", path, strerror(errno));
}

/* ---- the output rule: a stage's text report ------------------------- */

int gc_emit_option(gc_common *c, const char *arg, const char *const *values)
{
	char list[256];
	size_t n = 0;
	c->emit_none = strcmp(arg, "none") == 0;
	if (c->emit_none)
		return 0;
	for (int i = 0; values[i]; i++) {
		if (strcmp(arg, values[i]) == 0)
			return i;
		n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
				      i ? ", " : "", values[i]);
	}
	/* "is not dram or none", "is not l2, all or none" */
	gc_usage_error("--emit: '%s' is not %s or none", arg, n < sizeof list ? list : "...");
}

int gc_report_wanted(const gc_common *c)
{
	return c->verbose || c->report || c->emit_none;
}

void gc_write_report(const gc_common *c, void (*write)(FILE *f, const void *ctx),
		     const void *ctx)
{
	if (c->emit_none) {
		FILE *f = gc_open_text(c->out);
		write(f, ctx);
		gc_close_text(f, c->out);
	}
	if (c->report) {
		FILE *f = gc_open_text(c->report);
		write(f, ctx);
		gc_close_text(f, c->report);
	}
	if (c->verbose)
		write(stderr, ctx);
}

/* ---- progress --------------------------------------------------------- */

static int progress_shown;

/* Seconds as "42 s", "3:07" or "1:02:03". */
static void fmt_time(double s, char *buf, size_t len)
{
	unsigned long t = s > 0 && s < 1e7 ? (unsigned long)(s + 0.5) : 0;
	if (t < 60)
		snprintf(buf, len, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

void gc_progress(int enabled, uint64_t done, uint64_t total)
{
	static unsigned calls;
	if (enabled && !(++calls & 0xfff))
		gc_progress_block(enabled, done, total);
}

void gc_progress_block(int enabled, uint64_t done, uint64_t total)
{
	static struct timespec last, start;
	static uint64_t done0;
	if (!enabled || (!total && !progress_always) || !isatty(2))
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!start.tv_sec && !start.tv_nsec) {
		start = now;
		done0 = done;
	}
	if ((last.tv_sec || last.tv_nsec) &&
	    (now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec) < 250000000L)
		return;
	last = now;
	double el = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
	double rate = el > 0.05 ? (double)(done - done0) / el : 0; /* bytes a second */
	char r[48] = "", left[48] = "";
	if (rate > 0)
		snprintf(r, sizeof r, ", %.1f MiB/s", rate / 1048576.0);
	if (total) {
		if (rate > 0 && total > done)
			fmt_time((double)(total - done) / rate, left, sizeof left);
		fprintf(stderr, "\r%s: %5.1f%% (%llu of %llu MiB%s%s%s)\033[K", gc_progname,
			100.0 * (double)(done < total ? done : total) / (double)total,
			(unsigned long long)(done >> 20), (unsigned long long)(total >> 20), r,
			*left ? ", " : "", *left ? strcat(left, " left") : "");
	} else {
		fprintf(stderr, "\r%s: %llu MiB%s\033[K", gc_progname, (unsigned long long)(done >> 20),
			r);
	}
	progress_shown = 1;
}

void gc_progress_reader(int enabled, const gc_reader *r)
{
	uint64_t total = gc_reader_raw_size(r);
	gc_progress(enabled, total ? gc_reader_raw_bytes(r) : gc_reader_bytes(r), total);
}

void gc_progress_reader_block(int enabled, const gc_reader *r)
{
	uint64_t total = gc_reader_raw_size(r);
	gc_progress_block(enabled, total ? gc_reader_raw_bytes(r) : gc_reader_bytes(r), total);
}

void gc_progress_end(int enabled)
{
	if (enabled && progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

void *gc_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		gc_die(GC_EXIT_DATA, "out of memory");
	return p;
}

void *gc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		gc_die(GC_EXIT_DATA, "out of memory");
	return p;
}

char *gc_xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		gc_die(GC_EXIT_DATA, "out of memory");
	return d;
}

char *gc_read_text_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		gc_die(GC_EXIT_DATA, "%s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = gc_xrealloc(NULL, cap);
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f))
				gc_die(GC_EXIT_DATA, "%s: read error: %s", path, strerror(errno));
			break;
		}
		cap *= 2;
		buf = gc_xrealloc(buf, cap);
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}
