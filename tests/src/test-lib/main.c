/*
 * test-lib - unit tests of lib/, and small drivers for the cases that
 * must run as a process of their own (exit statuses, messages, stdout).
 *
 * test-lib            run every unit test, one TAP line each (check.h);
 *                     exit 1 if any failed
 * test-lib TEST       run one unit test
 * test-lib --list     the unit tests' names
 * test-lib num OPT ARG MIN MAX    gc_num, print the value
 * test-lib real OPT ARG MIN MAX   gc_real, print the value
 * test-lib gpu NAME|FILE          gc_gpu_load, print path and keys
 * test-lib lines [FILE]           gc_lines, print "N LEN TEXT" per line
 * test-lib json                   a sample document from the JSON writer
 * test-lib write-stream [-z]      a small stream to stdout (gc_open_output)
 * test-lib write-text             a line to stdout, then gc_close_stdout
 * test-lib write-bad outside|backwards   the writer refusing a record
 * test-lib cli [ARGS]             the shared options (gc_getopt)
 */
#include "base/endian.h"
#include "base/rng.h"
#include "base/rowmap.h"
#include "import/import.h"
#include "model/l1queue.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/lines.h"
#include "stream/stream.h"

#include <errno.h>
#include <time.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "test-lib/test-lib.h"

/* ---- temporary files, removed at exit ---------------------------------- */

static char *tmp_paths[64];
static int ntmp;

static void remove_tmp(void)
{
	for (int i = 0; i < ntmp; i++) {
		unlink(tmp_paths[i]);
		free(tmp_paths[i]);
	}
	ntmp = 0;
}

/* A new empty file; its path. */
const char *tmp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/test-lib.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0 || ntmp == 64) {
		fprintf(stderr, "test-lib: cannot make a temporary file: %s\n", strerror(errno));
		exit(2);
	}
	close(fd);
	if (ntmp == 0)
		atexit(remove_tmp);
	tmp_paths[ntmp] = strdup(path);
	return tmp_paths[ntmp++];
}

const char *tmp_with(const void *data, size_t n)
{
	const char *path = tmp_file();
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "test-lib: cannot write %s\n", path);
		exit(2);
	}
	return path;
}

const char *tmp_gzip_with(const void *data, size_t n)
{
	const char *path = tmp_file();
	gzFile g = gzopen(path, "wb");
	if (!g || gzwrite(g, data, (unsigned)n) != (int)n || gzclose(g) != Z_OK) {
		fprintf(stderr, "test-lib: cannot write %s\n", path);
		exit(2);
	}
	return path;
}

static const check_unit units[] = {
	{"endian", t_endian},
	{"header", t_header},
	{"header-provenance", t_header_provenance},
	{"header-text", t_header_text},
	{"kernel", t_kernel},
	{"names", t_names},
	{"outcome", t_outcome},
	{"outcome-strict", t_outcome_strict},
	{"sass-width", t_sass_width},
	{"sass-memop", t_sass_memop},
	{"sass-memop-nonmem", t_sass_memop_nonmem},
	{"parse-hex", t_parse_hex},
	{"parse-dec", t_parse_dec},
	{"parse-dec-min", t_parse_dec_min},
	{"lines", t_lines},
	{"lines-long", t_lines_long},
	{"lines-limit", t_lines_limit},
	{"json", t_json},
	{"stream-roundtrip", t_stream_roundtrip},
	{"stream-large", t_stream_large},
	{"stream-limits", t_stream_limits},
	{"stream-lanes", t_stream_lanes},
	{"writer-refuses", t_writer_refuses},
	{"writer-grid-range", t_writer_grid_range},
	{"writer-open-checks", t_writer_open_checks},
	{"reader-open", t_reader_open},
	{"l1wheel", t_l1wheel},
	{"abs-normal", t_abs_normal},
	{"read-data", t_read_data},
	{"write-raw-decode", t_write_raw_decode},
	{"stream-compute", t_stream_compute},
	{"write-raw", t_write_raw},
	{"rng", t_rng},
	{"rowmap", t_rowmap},
	{"grow", t_grow},
	{"bigmem", t_bigmem},
	{"bigpool", t_bigpool},
	{"counts-64", t_counts64},
};
#define NUNITS CHECK_NUNITS(units)

/* ===================================================================== */
/* Drivers run as processes of their own                                  */
/* ===================================================================== */

static uint64_t arg_u64(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int cmd_num(int argc, char **argv)
{
	if (argc != 6)
		gc_usage_error("num OPT ARG MIN MAX");
	uint64_t v = gc_num(argv[2], argv[3], arg_u64(argv[4]), arg_u64(argv[5]));
	printf("%llu\n", (unsigned long long)v);
	gc_close_stdout();
	return 0;
}

static int cmd_real(int argc, char **argv)
{
	if (argc != 6)
		gc_usage_error("real OPT ARG MIN MAX");
	double v = gc_real(argv[2], argv[3], strtod(argv[4], NULL), strtod(argv[5], NULL));
	printf("%.17g\n", v);
	gc_close_stdout();
	return 0;
}

static int cmd_gpu(int argc, char **argv)
{
	if (argc != 3)
		gc_usage_error("gpu NAME|FILE");
	static gc_gpu g;
	gc_gpu_load(&g, argv[2]);
	printf("name=%s\npath=%s\n", g.name, g.path);
	for (int i = 0; i < g.n; i++)
		printf("%d: %s = %s\n", g.line[i], g.key[i], g.val[i]);
	const char *v = gc_gpu_get(&g, "name");
	printf("get(name)=%s\n", v ? v : "(none)");
	gc_gpu_free(&g);
	gc_close_stdout();
	return 0;
}

static int cmd_lines(int argc, char **argv)
{
	gc_lines *l = gc_lines_open(argc > 2 ? argv[2] : "-");
	if (!l)
		gc_die(GC_EXIT_DATA, "out of memory");
	char *s;
	long n;
	while ((n = gc_lines_next(l, &s)) >= 0)
		printf("%llu %ld %.40s\n", (unsigned long long)gc_lines_number(l), n, s);
	if (n == -2)
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(l));
	gc_lines_close(l);
	gc_close_stdout();
	return 0;
}

static int cmd_write_stream(int argc, char **argv)
{
	gc_common c = {0};
	c.gzip = argc > 2 && strcmp(argv[2], "-z") == 0;
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	gc_header_add_provenance(&h, gc_cmdline());
	gc_writer *w = gc_open_output(&c, &h);
	static gc_kernel k;
	gc_kernel_init(&k, 1, "k");
	if (gc_write_kbegin(w, &k) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, 0x1000, 1);
	if (gc_write(w, &r) < 0 || gc_write_kend(w, 1) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	gc_close_output(w);
	gc_header_free(&h);
	return 0;
}

static int cmd_write_bad(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "outside") && strcmp(argv[2], "backwards")))
		gc_usage_error("write-bad outside|backwards");
	gc_common c = {0};
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	gc_writer *w = gc_open_output(&c, &h);
	static gc_kernel k;
	gc_kernel_init(&k, 1, "k");
	gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, 0x1000, 100);
	if (strcmp(argv[2], "outside") == 0) {
		if (gc_write_kbegin(w, &k) < 0 || gc_write(w, &r) < 0 || gc_write_kend(w, 1) < 0)
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	} else {
		if (gc_write_kbegin(w, &k) < 0 || gc_write(w, &r) < 0)
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
		r.time = 99;
	}
	if (gc_write(w, &r) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
	gc_close_output(w);
	return 0;
}

static int cmd_cli(int argc, char **argv)
{
	static const char help[] = "Usage: test-lib cli [options] [file]\n";
	static const struct option longopts[] = {GC_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
	gc_common c;
	memset(&c, 0, sizeof c);
	/* argv[1] ("cli") stands for the program name from here on. */
	argc--;
	argv++;
	int opt;
	while ((opt = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1)
		if (!gc_common_option(&c, opt, optarg, help))
			gc_usage_error("unexpected option");
	const char *in = gc_one_input(argc, argv);
	printf("in=%s out=%s stats=%s gpu=%s verbose=%d quiet=%d force=%d gzip=%d progress=%d\n",
	       in, c.out ? c.out : "-", c.stats ? c.stats : "-", c.gpu ? c.gpu : "-",
	       c.verbose, c.quiet, c.force, c.gzip, c.progress);
	printf("cmdline=%s\n", gc_cmdline());
	gc_close_stdout();
	return 0;
}

/* test-lib progress [--progress[=WHEN]] MIB: gc_progress over reading MIB
 * MiB (0: a pipe, size unknown, 10 MiB read) in ten steps of 4096 calls,
 * 0.3 s apart, then gc_progress_end. */
static int cmd_progress(int argc, char **argv)
{
	static const char help[] = "Usage: test-lib progress [--progress[=WHEN]] MIB\n";
	static const struct option longopts[] = {GC_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
	gc_common c;
	memset(&c, 0, sizeof c);
	argc--;
	argv++;
	int opt;
	while ((opt = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1)
		if (!gc_common_option(&c, opt, optarg, help))
			gc_usage_error("unexpected option");
	uint64_t mib = gc_num("MIB", gc_one_input(argc, argv), 0, 1u << 20);
	for (uint64_t s = 1; s <= 10; s++) {
		uint64_t done = (s * (mib ? mib : 10) << 20) / 10;
		for (int i = 0; i < 4096; i++)
			gc_progress(c.progress, done, mib << 20);
		struct timespec ts = {0, 300000000L};
		nanosleep(&ts, NULL);
	}
	gc_progress_end(c.progress);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "cli") == 0) {
		gc_prog_init("test-lib", argc - 1, argv + 1);
		return cmd_cli(argc, argv);
	}
	if (argc >= 2 && strcmp(argv[1], "progress") == 0) {
		gc_prog_init("test-lib", argc - 1, argv + 1);
		return cmd_progress(argc, argv);
	}
	gc_prog_init("test-lib", argc, argv);
	if (argc == 1) {
		int bad = check_run(units, NUNITS, NULL);
		remove_tmp();
		gc_close_stdout();
		return bad;
	}
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{"num", cmd_num}, {"real", cmd_real}, {"gpu", cmd_gpu}, {"lines", cmd_lines},
		{"write-stream", cmd_write_stream}, {"write-bad", cmd_write_bad},
	};
	const char *a = argv[1];
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(a, cmds[i].name) == 0)
			return cmds[i].fn(argc, argv);
	if (strcmp(a, "json") == 0) {
		json_sample(stdout);
		gc_close_stdout();
		return 0;
	}
	if (strcmp(a, "write-text") == 0) {
		printf("hello\n");
		gc_close_stdout();
		return 0;
	}
	if (strcmp(a, "--list") == 0) {
		for (size_t i = 0; i < NUNITS; i++)
			printf("%s\n", units[i].name);
		gc_close_stdout();
		return 0;
	}
	for (size_t i = 0; i < NUNITS; i++)
		if (strcmp(a, units[i].name) == 0) {
			int bad = check_run(units, NUNITS, a);
			remove_tmp();
			gc_close_stdout();
			return bad;
		}
	gc_usage_error("no test or command '%s' (see the comment at the top of test-lib/main.c)", a);
}
