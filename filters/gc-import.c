/*
 * gc-import - read the traces users already have into an access stream.
 *
 * Reads: trace files (format detected from content, or --format).
 * Writes: one access stream (gc-stream(5)), kernels in input order.
 */
#include "config/gpu.h"
#include "import/formats.h"
#include "import/import.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gc_format formats[] = {
	{"csv", "the CSV dump of gc-stats --dump (restores the stream exactly)",
	 gc_csv_probe, gc_csv_import},
	{"accelsim", "Accel-Sim NVBit traces: kernel-N.traceg, raw kernel-N.trace, kernelslist[.g]",
	 gc_accelsim_probe, gc_accelsim_import},
	{"nvbit", "NVBit mem_trace output (MEMTRACE: lines, or the older CTA/Kernel lines)",
	 gc_nvbit_probe, gc_nvbit_import},
	{"ppt-gpu", "PPT-GPU memory traces: kernel_K_block_B.mem, or app_config[.py] for a whole run",
	 gc_ppt_probe, gc_ppt_import},
	{"ocelot", "Ocelot .trc traces of the reuse-distance cache model (blocksize: header)",
	 gc_ocelot_probe, gc_ocelot_import},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static const char help[] =
	"Usage: gc-import [options] [file ...]\n"
	"Read GPU memory traces into a gc access stream.\n"
	"\n"
	"  -f, --format NAME    input format (default: detected from content)\n"
	"      --list-formats   list the formats and exit\n"
	"      --lenient        skip malformed lines, counting them on stderr\n"
	"\n"
	"Accel-Sim traces:\n"
	"      --intervals      a compute field on every record: the warp's non-memory\n"
	"                       instructions, issue cycles and memory waits before it,\n"
	"                       timed with the --gpu preset's opcode latencies (default:\n"
	"                       the preset of the kernel's binary version)\n"
	"      --op-latency CLASS=LAT[,INIT]  --intervals: the latency (and initiation\n"
	"                       interval) of opcode class int, sp, dp, sfu, tensor or\n"
	"                       branch instead of the GPU's; repeatable\n"
	"\n"
	"NVBit, PPT-GPU and Ocelot traces:\n"
	"      --junk RULES     NVBit, PPT-GPU: drop junk lane addresses: keep (default),\n"
	"                       drop[=BELOW] (below 0x1000 or BELOW), inactive (all\n"
	"                       that inactive lanes hold), or below:N,range:LO-HI,above:N\n"
	"      --app-config FILE  PPT-GPU: launch geometry for .mem inputs\n"
	"      --ppt-level N    PPT-GPU: the tracer's ENV_TRACING_LEVEL (default 1)\n"
	"      --grid X[,Y[,Z]] Ocelot: grid of the traced launch (default: 1-D)\n"
	"      --warp-size N    Ocelot: threads per warp (default 32)\n"
	"      --order auto|file|thread  Ocelot: lines to warp instructions by file\n"
	"                       order or by each thread's k-th access (default: detected)\n"
	"\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --emit WHAT      accesses (default): write the stream; none: no stream,\n"
	"                       the report on stdout (or -o FILE) instead\n"
	"      --report FILE    write the report (-v's) to FILE\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --gpu NAME|FILE  GPU preset (recorded in the header; --intervals: its\n"
	"                       opcode latencies)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"      --progress       show progress on a terminal: the share of the input\n"
	"                       files read (a kernelslist's traces included)\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print the report on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_LIST = GC_OPT_TOOL, OPT_LENIENT, OPT_INTERVALS, OPT_OP_LATENCY };
/* NVBit, PPT-GPU and Ocelot options. */
enum { OPT_JUNK = GC_OPT_TOOL + 0x40, OPT_APP_CONFIG, OPT_PPT_LEVEL, OPT_GRID, OPT_WARP_SIZE,
       OPT_ORDER };

struct cmdline {
	gc_common c;
	const char *format;
	int list, lenient, intervals;
	gc_gpu_oplat oplat; /* --op-latency */
	int ninputs;
	char **inputs;
	/* NVBit, PPT-GPU and Ocelot options. */
	gc_junk_rule junk[GC_JUNK_RULES];
	int njunk;
	int order;
	const char *app_config;
	int ppt_level;
	uint32_t grid[3];
	int warp_size;
};

static void add_junk(struct cmdline *cl, const char *arg, int kind, uint64_t lo, uint64_t hi)
{
	if (cl->njunk == GC_JUNK_RULES)
		gc_usage_error("--junk: '%s' has more than %d rules", arg, GC_JUNK_RULES);
	cl->junk[cl->njunk].kind = kind;
	cl->junk[cl->njunk].lo = lo;
	cl->junk[cl->njunk].hi = hi;
	cl->njunk++;
}

/* One rule of --junk: below:N, range:LO-HI, above:N, inactive. */
static void junk_rule(struct cmdline *cl, const char *arg, char *r)
{
	char *dash;
	if (strcmp(r, "inactive") == 0) {
		/* What PPT-GPU's tracer writes for lanes that took no part. */
		add_junk(cl, arg, GC_JUNK_BELOW, 0, 0xfff);
		add_junk(cl, arg, GC_JUNK_RANGE, 0xf0000000, 0xffffffff);
		add_junk(cl, arg, GC_JUNK_ABOVE, GC_ADDR48_MAX + 1, UINT64_MAX);
	} else if (strncmp(r, "below:", 6) == 0) {
		add_junk(cl, arg, GC_JUNK_BELOW, 0, gc_num("--junk", r + 6, 1, UINT64_MAX) - 1);
	} else if (strncmp(r, "above:", 6) == 0) {
		add_junk(cl, arg, GC_JUNK_ABOVE, gc_num("--junk", r + 6, 0, UINT64_MAX - 1) + 1,
			 UINT64_MAX);
	} else if (strncmp(r, "range:", 6) == 0 && (dash = strchr(r + 6, '-')) != NULL) {
		*dash = 0;
		uint64_t lo = gc_num("--junk", r + 6, 0, UINT64_MAX);
		uint64_t hi = gc_num("--junk", dash + 1, lo, UINT64_MAX);
		add_junk(cl, arg, GC_JUNK_RANGE, lo, hi);
	} else {
		gc_usage_error("--junk: expected keep, drop, drop=BELOW, inactive, below:N, "
			       "range:LO-HI or above:N, not '%s'", r);
	}
}

/* --junk keep | drop[=BELOW] | RULE[,RULE...] */
static void parse_junk(struct cmdline *cl, const char *arg)
{
	char buf[256];
	cl->njunk = 0;
	if (strcmp(arg, "keep") == 0)
		return;
	if (strcmp(arg, "drop") == 0) {
		add_junk(cl, arg, GC_JUNK_BELOW, 0, 0xfff);
		return;
	}
	if (strncmp(arg, "drop=", 5) == 0) {
		add_junk(cl, arg, GC_JUNK_BELOW, 0, gc_num("--junk", arg + 5, 1, UINT64_MAX) - 1);
		return;
	}
	if (strlen(arg) >= sizeof buf)
		gc_usage_error("--junk: '%s' is too long", arg);
	strcpy(buf, arg);
	for (char *r = buf, *comma; r; r = comma ? comma + 1 : NULL) {
		comma = strchr(r, ',');
		if (comma)
			*comma = 0;
		junk_rule(cl, arg, r);
	}
}

/* --grid X[,Y[,Z]] */
static void parse_grid(struct cmdline *cl, const char *arg)
{
	static const uint64_t max[3] = {UINT32_MAX, UINT16_MAX, UINT16_MAX};
	char buf[96];
	if (strlen(arg) >= sizeof buf)
		gc_usage_error("--grid: '%s' is too long", arg);
	strcpy(buf, arg);
	char *p = buf;
	for (int i = 0; i < 3; i++) {
		char *comma = p ? strchr(p, ',') : NULL;
		if (comma)
			*comma = 0;
		cl->grid[i] = p ? (uint32_t)gc_num("--grid", p, 1, max[i]) : 1;
		p = comma ? comma + 1 : NULL;
	}
	if (p)
		gc_usage_error("--grid: expected X[,Y[,Z]], not '%s'", arg);
	if ((uint64_t)cl->grid[0] * cl->grid[1] * cl->grid[2] > UINT32_MAX)
		gc_usage_error("--grid: %s blocks do not fit 32-bit block ids", arg);
}

/* --order auto|file|thread */
static int parse_order(const char *arg)
{
	static const char *const names[] = {"auto", "file", "thread"};
	for (int i = 0; i < 3; i++)
		if (strcmp(arg, names[i]) == 0)
			return i == 0 ? GC_ORDER_AUTO : i == 1 ? GC_ORDER_FILE : GC_ORDER_THREAD;
	gc_usage_error("--order: expected auto, file or thread, not '%s'", arg);
	return 0;
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"format", required_argument, NULL, 'f'},
		{"list-formats", no_argument, NULL, OPT_LIST},
		{"lenient", no_argument, NULL, OPT_LENIENT},
		{"intervals", no_argument, NULL, OPT_INTERVALS},
		{"op-latency", required_argument, NULL, OPT_OP_LATENCY},
		{"junk", required_argument, NULL, OPT_JUNK},
		{"app-config", required_argument, NULL, OPT_APP_CONFIG},
		{"ppt-level", required_argument, NULL, OPT_PPT_LEVEL},
		{"grid", required_argument, NULL, OPT_GRID},
		{"warp-size", required_argument, NULL, OPT_WARP_SIZE},
		{"order", required_argument, NULL, OPT_ORDER},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->ppt_level = 1;
	cl->warp_size = 32;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS "f:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"accesses", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			break;
		}
		case 'f': cl->format = optarg; break;
		case OPT_LIST: cl->list = 1; break;
		case OPT_LENIENT: cl->lenient = 1; break;
		case OPT_INTERVALS: cl->intervals = 1; break;
		case OPT_OP_LATENCY: gc_gpu_oplat_parse(&cl->oplat, optarg); break;
		case OPT_JUNK: parse_junk(cl, optarg); break;
		case OPT_APP_CONFIG: cl->app_config = optarg; break;
		case OPT_PPT_LEVEL: cl->ppt_level = (int)gc_num("--ppt-level", optarg, 0, 15); break;
		case OPT_GRID: parse_grid(cl, optarg); break;
		case OPT_WARP_SIZE: cl->warp_size = (int)gc_num("--warp-size", optarg, 1, 256); break;
		case OPT_ORDER: cl->order = parse_order(optarg); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (cl->oplat.given && !cl->intervals)
		gc_usage_error("--op-latency: only with --intervals");
	if (cl->format) {
		size_t i;
		for (i = 0; i < NFORMATS; i++)
			if (strcmp(cl->format, formats[i].name) == 0)
				break;
		if (i == NFORMATS)
			gc_usage_error("--format: unknown format '%s' (see --list-formats)", cl->format);
	}
	cl->inputs = argv + optind;
	cl->ninputs = argc - optind;
}

static void list_formats(void)
{
	for (size_t i = 0; i < NFORMATS; i++)
		printf("%-10s %s\n", formats[i].name, formats[i].what);
	gc_close_stdout();
}

/* The error policy: fatal unless --lenient. */
static void on_bad(gc_import *im, const char *file, uint64_t line, const char *msg)
{
	if (!im->lenient) {
		if (im->w)
			gc_writer_free(im->w);
		gc_die(GC_EXIT_DATA, "%s:%llu: %s", file, (unsigned long long)line, msg);
	}
}

static void on_fatal(gc_import *im, const char *msg)
{
	(void)im;
	gc_die(GC_EXIT_DATA, "%s", msg);
}

static int quiet;

static void on_warn(gc_import *im, const char *msg)
{
	(void)im;
	if (!quiet)
		gc_warn("%s", msg);
}

/* ---- --intervals -------------------------------------------------------- */

#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(GC_IV_INT, GC_OP_INT) && SAME(GC_IV_SP, GC_OP_SP) &&
		       SAME(GC_IV_DP, GC_OP_DP) && SAME(GC_IV_SFU, GC_OP_SFU) &&
		       SAME(GC_IV_TENSOR, GC_OP_TENSOR) && SAME(GC_IV_BRANCH, GC_OP_BRANCH) &&
		       SAME(GC_IV_NCLASSES, GC_NOPS),
	       "import/intervals.h's classes are config/gpu.h's enum gc_gpu_op");

/* The latencies of --gpu, or of the first kernel's binary version, with
 * --op-latency's over them, into im->iv_lat and the header's intervals.*
 * keys. */
static const char *gpu_opt;
static const gc_gpu_oplat *oplat;

/* The GPU the latencies are --gpu's, else the binary version's preset;
 * NULL: none (no version, or a version without a preset). */
static const char *iv_gpu(int have_binary, uint64_t binary)
{
	if (gpu_opt)
		return gpu_opt;
	return have_binary ? gc_gpu_preset_of_cc((unsigned)binary) : NULL;
}

static void iv_latencies(gc_import *im, const char *name, gc_gpu_config *gpu)
{
	gc_gpu_for_stream(gpu, name, NULL);
	gc_gpu_oplat_apply(gpu, oplat);
	gc_gpu_config_finish(gpu);
	for (int c = 0; c < GC_IV_NCLASSES; c++) {
		im->iv_lat.latency[c] = gpu->op.latency[c];
		im->iv_lat.initiation[c] = gpu->op.initiation[c];
	}
}

/* The latencies alone, early (the one-pass reader); -1: iv_setup would fail. */
static int iv_choose(gc_import *im, int have_binary, uint64_t binary)
{
	const char *name = iv_gpu(have_binary, binary);
	if (!name)
		return -1;
	gc_gpu_config gpu;
	iv_latencies(im, name, &gpu);
	return 0;
}

static void iv_setup(gc_import *im, const char *file, int have_binary, uint64_t binary)
{
	const char *name = iv_gpu(have_binary, binary);
	if (!name && !have_binary)
		gc_usage_error("%s: --intervals: the kernel has no '-binary version' line "
			       "to choose the GPU by; name one with --gpu", file);
	if (!name)
		gc_usage_error("%s: --intervals: binary version %llu has no preset; "
			       "name the GPU with --gpu", file, (unsigned long long)binary);
	gc_gpu_config gpu;
	iv_latencies(im, name, &gpu);
	char key[64], val[64];
	int bad = gc_header_set(&im->h, "intervals", "accelsim") < 0 ||
		  gc_header_set(&im->h, "intervals.gpu", name) < 0;
	for (int c = 0; c < GC_IV_NCLASSES; c++) {
		snprintf(key, sizeof key, "intervals.op.%s", gc_iv_class_name[c]);
		snprintf(val, sizeof val, "%u,%u", gpu.op.latency[c], gpu.op.initiation[c]);
		bad |= gc_header_set(&im->h, key, val) < 0;
	}
	if (bad)
		gc_die(GC_EXIT_DATA, "output header is full (intervals.* keys)");
}

static const gc_format *pick_format(const struct cmdline *cl, gc_lines *in)
{
	if (cl->format) {
		for (size_t i = 0; i < NFORMATS; i++)
			if (strcmp(cl->format, formats[i].name) == 0)
				return &formats[i];
	}
	size_t len;
	const char *head = gc_lines_peek(in, &len);
	if (gc_lines_failed(in))
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(in));
	if (len == 0)
		gc_die(GC_EXIT_DATA, "%s: empty input", gc_lines_name(in));
	const gc_format *best = NULL;
	int score = 0;
	for (size_t i = 0; i < NFORMATS; i++) {
		int s = formats[i].probe(head, len, gc_lines_name(in));
		if (s > score) {
			score = s;
			best = &formats[i];
		}
	}
	if (!best)
		gc_die(GC_EXIT_DATA, "%s: unknown trace format (see --list-formats; "
		       "--format NAME forces one)", gc_lines_name(in));
	return best;
}

static int progress_told;

static void import_one(gc_import *im, const struct cmdline *cl, const char *path)
{
	progress_told = 0;
	gc_lines *in = gc_lines_open(path);
	if (!in)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (gc_lines_failed(in))
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(in));
	const gc_format *f = pick_format(cl, in);
	progress_told = 1;
	if (cl->intervals && strcmp(f->name, "accelsim") != 0) {
		if (im->w)
			gc_writer_free(im->w);
		gc_usage_error("%s: --intervals: the %s format carries no non-memory "
			       "instructions (only Accel-Sim traces do)", gc_lines_name(in), f->name);
	}
	if (!gc_header_get(&im->h, "source_format"))
		gc_header_set(&im->h, "source_format", f->name);
	f->import(im, in);
	if (gc_lines_failed(in))
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(in));
	gc_import_text(im, in);
	gc_lines_close(in);
}

/* Lanes dropped by the junk rules of one kind. */
static uint64_t junk_of_kind(const gc_import *im, int kind)
{
	uint64_t n = 0;
	for (int i = 0; i < im->njunk; i++)
		if (im->junk[i].kind == kind)
			n += im->junk_dropped[i];
	return n;
}

/* The report: the lanes each junk rule dropped, one line. */
static void junk_summary(FILE *f, const gc_import *im)
{
	char line[1024];
	size_t n = 0;
	for (int i = 0; i < im->njunk && n < sizeof line; i++) {
		const gc_junk_rule *r = &im->junk[i];
		unsigned long long c = (unsigned long long)im->junk_dropped[i];
		const char *sep = i ? ", " : "";
		if (r->kind == GC_JUNK_BELOW)
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%llu below 0x%llx", sep,
					      c, (unsigned long long)r->hi + 1);
		else if (r->kind == GC_JUNK_ABOVE)
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%llu above 0x%llx", sep,
					      c, (unsigned long long)r->lo - 1);
		else
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%llu in 0x%llx-0x%llx",
					      sep, c, (unsigned long long)r->lo,
					      (unsigned long long)r->hi);
	}
	fprintf(f, "%s: junk lanes dropped: %s\n", gc_progname, line);
}

/* The text report (-v, --report, --emit none). */
static void report(FILE *f, const void *ctx)
{
	const gc_import *im = ctx;
	fprintf(f, "%s: %llu lines (%llu bytes) read, %llu skipped; %llu kernels, "
		"%llu warp instructions, %llu memory warp instructions, %llu accesses\n",
		gc_progname, (unsigned long long)im->lines, (unsigned long long)im->text_bytes,
		(unsigned long long)im->bad_lines, (unsigned long long)im->kernels,
		(unsigned long long)im->instructions, (unsigned long long)im->mem_instructions,
		(unsigned long long)im->accesses);
	if (im->njunk)
		junk_summary(f, im);
	if (im->thread_order)
		fprintf(f, "%s: %llu Ocelot files read in thread order\n", gc_progname,
			(unsigned long long)im->thread_order);
}

static void write_stats(const struct cmdline *cl, const gc_import *im)
{
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		gc_json j;
		gc_json_begin(&j, f);
		gc_json_str(&j, "tool", "gc-import");
		gc_json_str(&j, "input", cl->ninputs ? cl->inputs[0] : "stdin");
		gc_json_str(&j, "gpu", gc_gpu_header_named(&im->h));
		gc_json_u64(&j, "lines", im->lines);
		gc_json_u64(&j, "text_bytes", im->text_bytes);
		gc_json_u64(&j, "kernel_count", im->kernels);
		gc_json_u64(&j, "instructions", im->instructions);
		gc_json_u64(&j, "mem_instructions", im->mem_instructions);
		gc_json_u64(&j, "accesses", im->accesses);
		gc_json_u64(&j, "bad_lines", im->bad_lines);
		if (im->njunk) { /* with --junk rules only */
			gc_json_u64(&j, "junk_below", junk_of_kind(im, GC_JUNK_BELOW));
			gc_json_u64(&j, "junk_range", junk_of_kind(im, GC_JUNK_RANGE));
			gc_json_u64(&j, "junk_above", junk_of_kind(im, GC_JUNK_ABOVE));
		}
		if (im->thread_order) /* Ocelot files read in thread order, if any */
			gc_json_u64(&j, "thread_order_files", im->thread_order);
		if (im->thread_insts) /* Accel-Sim traces */
			gc_json_u64(&j, "thread_instructions", im->thread_insts);
		if (im->intervals)
			gc_json_u64(&j, "unknown_opcode_instructions", im->iv_unknown);
		gc_json_end(&j);
		gc_close_text(f, cl->c.stats);
	}
	gc_write_report(&cl->c, report, im);
	if (im->bad_lines && !cl->c.quiet)
		gc_warn("skipped %llu malformed lines (--lenient)",
			(unsigned long long)im->bad_lines);
}

/* --progress: the bytes read of all the inputs will be read in (their
 * sizes on disk, once a pass).  A total not final yet is not drawn: while
 * an input's format is being told (its parser adds the passes after the
 * first), or while the bytes read reach it (a kernelslist read before
 * its traces are added; the end). */
static const gc_import *progress_im;
static int progress_on;

static void on_read(uint64_t done)
{
	uint64_t total = progress_im->read_unknown ? 0 : progress_im->read_total;
	if (progress_told && (!total || done < total))
		gc_progress_block(progress_on, done, total);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	gc_import im;

	gc_prog_init("gc-import", argc, argv);
	parse_cmdline(argc, argv, &cl);
	if (cl.list) {
		list_formats();
		return 0;
	}
	gc_import_init(&im);
	im.out = cl.c.out;
	im.wflags = (cl.c.gzip ? GC_W_GZIP : 0) | (cl.c.force ? GC_W_FORCE : 0);
	im.no_stream = cl.c.emit_none;
	im.lenient = cl.lenient;
	/* the Accel-Sim spool's budget (gc-import(1), ENVIRONMENT) */
	const char *spool = getenv("GC_ACCELSIM_SPOOL");
	if (spool && *spool)
		im.accelsim_spool = gc_num("GC_ACCELSIM_SPOOL", spool, 0, UINT64_MAX);
	im.bad = on_bad;
	im.fatal = on_fatal;
	im.warn = on_warn;
	quiet = cl.c.quiet;
	/* NVBit, PPT-GPU and Ocelot options. */
	memcpy(im.junk, cl.junk, sizeof im.junk);
	im.njunk = cl.njunk;
	im.order = cl.order;
	im.warp_size = cl.warp_size;
	im.app_config = cl.app_config;
	im.ppt_level = cl.ppt_level;
	if (cl.grid[0])
		memcpy(im.grid, cl.grid, sizeof im.grid);
	gc_header_add_provenance(&im.h, gc_cmdline());
	if (cl.intervals) {
		im.intervals = 1;
		im.iv_setup = iv_setup;
		im.iv_choose = iv_choose;
		gpu_opt = cl.c.gpu;
		oplat = &cl.oplat;
		im.h.optional |= GC_OPT_COMPUTE;
		im.h.record_size = GC_RECORD_COMPUTE;
	}
	if (cl.c.gpu) {
		gc_gpu_config gpu;
		gc_gpu_for_stream(&gpu, cl.c.gpu, NULL);
		gc_gpu_config_finish(&gpu);
		gc_gpu_config_header(&gpu, cl.c.gpu, &im.h);
	}
	if (cl.c.progress) {
		for (int i = 0; i < (cl.ninputs ? cl.ninputs : 1); i++)
			gc_import_will_read(&im, cl.ninputs ? cl.inputs[i] : "-", 1);
		progress_im = &im;
		progress_on = cl.c.progress;
		gc_lines_watch(on_read);
	}
	if (cl.ninputs == 0)
		import_one(&im, &cl, "-");
	for (int i = 0; i < cl.ninputs; i++)
		import_one(&im, &cl, cl.inputs[i]);
	gc_lines_watch(NULL);
	gc_progress_end(cl.c.progress);
	gc_import_finish(&im);
	write_stats(&cl, &im);
	gc_header_free(&im.h);
	return 0;
}
