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
	"NVBit, PPT-GPU and Ocelot traces:\n"
	"      --junk keep|drop[=BELOW]  lane addresses below BELOW (default 0x1000):\n"
	"                       keep them (default) or drop them (NVBit, PPT-GPU)\n"
	"      --app-config FILE  PPT-GPU: launch geometry for .mem inputs\n"
	"      --ppt-level N    PPT-GPU: the tracer's ENV_TRACING_LEVEL (default 1)\n"
	"      --grid X[,Y[,Z]] Ocelot: grid of the traced launch (default: 1-D)\n"
	"      --warp-size N    Ocelot: threads per warp (default 32)\n"
	"\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --gpu NAME|FILE  GPU preset (recorded in the header)\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print a summary on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_LIST = GC_OPT_TOOL, OPT_LENIENT };
/* NVBit, PPT-GPU and Ocelot options. */
enum { OPT_JUNK = GC_OPT_TOOL + 0x40, OPT_APP_CONFIG, OPT_PPT_LEVEL, OPT_GRID, OPT_WARP_SIZE };

struct cmdline {
	gc_common c;
	const char *format;
	int list, lenient;
	int ninputs;
	char **inputs;
	/* NVBit, PPT-GPU and Ocelot options. */
	int junk;
	uint64_t junk_below;
	const char *app_config;
	int ppt_level;
	uint32_t grid[3];
	int warp_size;
};

/* --junk keep|drop[=BELOW] */
static void parse_junk(struct cmdline *cl, const char *arg)
{
	if (strcmp(arg, "keep") == 0)
		cl->junk = GC_JUNK_KEEP;
	else if (strcmp(arg, "drop") == 0)
		cl->junk = GC_JUNK_DROP;
	else if (strncmp(arg, "drop=", 5) == 0) {
		cl->junk = GC_JUNK_DROP;
		cl->junk_below = gc_num("--junk", arg + 5, 1, UINT64_MAX);
	} else
		gc_usage_error("--junk: expected keep, drop or drop=BELOW, not '%s'", arg);
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

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		{"format", required_argument, NULL, 'f'},
		{"list-formats", no_argument, NULL, OPT_LIST},
		{"lenient", no_argument, NULL, OPT_LENIENT},
		{"junk", required_argument, NULL, OPT_JUNK},
		{"app-config", required_argument, NULL, OPT_APP_CONFIG},
		{"ppt-level", required_argument, NULL, OPT_PPT_LEVEL},
		{"grid", required_argument, NULL, OPT_GRID},
		{"warp-size", required_argument, NULL, OPT_WARP_SIZE},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->junk_below = 0x1000;
	cl->ppt_level = 1;
	cl->warp_size = 32;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS "f:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case 'f': cl->format = optarg; break;
		case OPT_LIST: cl->list = 1; break;
		case OPT_LENIENT: cl->lenient = 1; break;
		case OPT_JUNK: parse_junk(cl, optarg); break;
		case OPT_APP_CONFIG: cl->app_config = optarg; break;
		case OPT_PPT_LEVEL: cl->ppt_level = (int)gc_num("--ppt-level", optarg, 0, 15); break;
		case OPT_GRID: parse_grid(cl, optarg); break;
		case OPT_WARP_SIZE: cl->warp_size = (int)gc_num("--warp-size", optarg, 1, 256); break;
		default: gc_usage_error("unexpected option");
		}
	}
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
			gc_writer_abandon(im->w);
		gc_die(GC_EXIT_DATA, "%s:%llu: %s", file, (unsigned long long)line, msg);
	}
}

static void on_fatal(gc_import *im, const char *msg)
{
	(void)im;
	gc_die(GC_EXIT_DATA, "%s", msg);
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

static void import_one(gc_import *im, const struct cmdline *cl, const char *path)
{
	gc_lines *in = gc_lines_open(path);
	if (!in)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (gc_lines_failed(in))
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(in));
	const gc_format *f = pick_format(cl, in);
	if (!gc_header_get(&im->h, "source_format"))
		gc_header_set(&im->h, "source_format", f->name);
	f->import(im, in);
	if (gc_lines_failed(in))
		gc_die(GC_EXIT_DATA, "%s", gc_lines_error(in));
	gc_import_text(im, in);
	gc_lines_close(in);
}

static void write_stats(const struct cmdline *cl, const gc_import *im)
{
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		gc_json j;
		gc_json_begin(&j, f);
		gc_json_u64(&j, "lines", im->lines);
		gc_json_u64(&j, "text_bytes", im->text_bytes);
		gc_json_u64(&j, "kernels", im->kernels);
		gc_json_u64(&j, "instructions", im->instructions);
		gc_json_u64(&j, "mem_instructions", im->mem_instructions);
		gc_json_u64(&j, "accesses", im->accesses);
		gc_json_u64(&j, "bad_lines", im->bad_lines);
		gc_json_end(&j);
		gc_close_text(f, cl->c.stats);
	}
	if (cl->c.verbose)
		fprintf(stderr, "%s: %llu lines (%llu bytes) read, %llu skipped; %llu kernels, "
			"%llu warp instructions, %llu memory warp instructions, %llu accesses\n",
			gc_progname, (unsigned long long)im->lines,
			(unsigned long long)im->text_bytes, (unsigned long long)im->bad_lines,
			(unsigned long long)im->kernels, (unsigned long long)im->instructions,
			(unsigned long long)im->mem_instructions,
			(unsigned long long)im->accesses);
	if (im->bad_lines && !cl->c.quiet)
		gc_warn("skipped %llu malformed lines (--lenient)",
			(unsigned long long)im->bad_lines);
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
	im.lenient = cl.lenient;
	im.bad = on_bad;
	im.fatal = on_fatal;
	/* NVBit, PPT-GPU and Ocelot options. */
	im.junk_policy = cl.junk;
	im.junk_below = cl.junk_below;
	im.warp_size = cl.warp_size;
	im.app_config = cl.app_config;
	im.ppt_level = cl.ppt_level;
	if (cl.grid[0])
		memcpy(im.grid, cl.grid, sizeof im.grid);
	gc_header_add_provenance(&im.h, gc_cmdline());
	if (cl.c.gpu) {
		gc_gpu_config gpu;
		gc_gpu_for_stream(&gpu, cl.c.gpu, NULL);
		gc_gpu_config_finish(&gpu);
		gc_gpu_config_header(&gpu, cl.c.gpu, &im.h);
	}
	if (cl.ninputs == 0)
		import_one(&im, &cl, "-");
	for (int i = 0; i < cl.ninputs; i++)
		import_one(&im, &cl, cl.inputs[i]);
	gc_import_finish(&im);
	write_stats(&cl, &im);
	gc_header_free(&im.h);
	return 0;
}
