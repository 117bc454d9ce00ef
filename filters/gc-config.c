/*
 * gc-config - GPU configurations: convert a GPGPU-Sim/Accel-Sim
 * gpgpusim.config (and trace.config) into a gc preset file, list the
 * presets, and list the GPGPU-Sim options gc reads or ignores
 * (gc-config(1), gc-config(5)).
 */
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-config --from CONFIG [--trace-config FILE] [-o FILE]\n"
	"       gc-config --list | --list-gpus | --options\n"
	"Convert a GPGPU-Sim gpgpusim.config into a gc GPU preset; list the presets.\n"
	"\n"
	"      --from CONFIG    a gpgpusim.config, or a folder holding gpgpusim.config\n"
	"                       and (used when there) trace.config\n"
	"      --trace-config F Accel-Sim's trace.config (opcode latencies) to read after it\n"
	"      --list           list the presets (name, description) and exit\n"
	"      --list-gpus      the same as --list\n"
	"      --options        list the GPGPU-Sim options: the keys each sets, or why ignored\n"
	"  -o, --output FILE    write to FILE (default: stdout)\n"
	"      --stats FILE     --from: write a JSON summary of the conversion to FILE\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        say what was converted on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_FROM = GC_OPT_TOOL, OPT_TRACE, OPT_LIST, OPT_OPTIONS };

static const struct option longopts[] = {
	GC_BASIC_LONGOPTS,
	{"stats", required_argument, NULL, GC_OPT_STATS},
	{"from", required_argument, NULL, OPT_FROM},
	{"trace-config", required_argument, NULL, OPT_TRACE},
	{"list", no_argument, NULL, OPT_LIST},
	{"list-gpus", no_argument, NULL, OPT_LIST},
	{"options", no_argument, NULL, OPT_OPTIONS},
	{NULL, 0, NULL, 0},
};

static void list_options(FILE *f)
{
	for (int i = 0; i < gc_gpgpusim_noptions(); i++) {
		const char *keys, *why;
		const char *name = gc_gpgpusim_option(i, &keys, &why);
		fprintf(f, "%s\t%s%s\n", name, keys ? "" : "ignored: ", keys ? keys : why);
	}
}

/* --stats: what was converted, from what. */
static void write_stats(const char *path, const char *cfg, const char *trace, const char *name,
			const gc_gpgpusim *s)
{
	FILE *f = gc_open_text(path);
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-config");
	gc_json_str(&j, "input", cfg);
	gc_json_str(&j, "gpu", name);
	if (trace)
		gc_json_str(&j, "trace_config", trace);
	else
		gc_json_null(&j, "trace_config");
	gc_json_u64(&j, "keys", (uint64_t)s->g.n);
	gc_json_u64(&j, "unknown_options", (uint64_t)s->nunknown);
	gc_json_end(&j);
	gc_close_text(f, path);
}

int main(int argc, char **argv)
{
	gc_common c = {0};
	const char *from = NULL, *trace = NULL;
	int list = 0, opts = 0, ch;
	gc_prog_init("gc-config", argc, argv);
	while ((ch = gc_getopt(argc, argv, "hVqvo:", longopts)) != -1) {
		if (gc_common_option(&c, ch, optarg, help))
			continue;
		switch (ch) {
		case OPT_FROM: from = optarg; break;
		case OPT_TRACE: trace = optarg; break;
		case OPT_LIST: list = 1; break;
		case OPT_OPTIONS: opts = 1; break;
		}
	}
	if (optind < argc)
		gc_usage_error("unexpected operand '%s'", argv[optind]);
	if (list + opts + !!from != 1)
		gc_usage_error("give one of --from CONFIG, --list or --options");
	if (trace && !from)
		gc_usage_error("--trace-config needs --from");
	if (c.stats && !from)
		gc_usage_error("--stats needs --from");
	if (list) {
		FILE *f = gc_open_text(c.out);
		gc_gpu_list_presets(f);
		gc_close_text(f, c.out);
		return 0;
	}
	if (opts) {
		FILE *f = gc_open_text(c.out);
		list_options(f);
		gc_close_text(f, c.out);
		return 0;
	}

	/* A folder: its gpgpusim.config, and its trace.config when there. */
	char cfg[1024], tr[1024];
	snprintf(cfg, sizeof cfg, "%s", from);
	FILE *probe;
	snprintf(tr, sizeof tr, "%s/gpgpusim.config", from);
	if ((probe = fopen(tr, "r"))) {
		fclose(probe);
		snprintf(cfg, sizeof cfg, "%s", tr);
		snprintf(tr, sizeof tr, "%s/trace.config", from);
		if (!trace && (probe = fopen(tr, "r"))) {
			fclose(probe);
			trace = tr;
		}
	}
	int is = gc_gpu_is_gpgpusim(cfg);
	if (is < 0)
		gc_die(GC_EXIT_DATA, "%s: cannot read it", cfg);
	if (is == 0)
		gc_die(GC_EXIT_DATA, "%s: not a GPGPU-Sim configuration (no '-option value' line "
		       "before the first other line)", cfg);
	gc_gpgpusim s;
	char err[700];
	if (gc_gpgpusim_convert(&s, cfg, trace, err, sizeof err) < 0)
		gc_die(GC_EXIT_DATA, "%s", err);
	if (s.nunknown && !c.quiet)
		gc_warn("%s: %d option%s gc does not know, ignored (the first: %s)", cfg, s.nunknown,
			s.nunknown == 1 ? "" : "s", s.unknown);
	/* The keys must make a valid configuration before anything is written. */
	gc_gpu_config gpu;
	if (gc_gpu_parse_lists(&gpu, &s.g, err, sizeof err) < 0)
		gc_die(GC_EXIT_DATA, "%s", err);

	FILE *f = gc_open_text(c.out);
	fprintf(f, "# %s: converted by gc-config --from from GPGPU-Sim's\n# %s%s%s.\n", gpu.name, cfg,
		trace ? " and " : "", trace ? trace : "");
	fprintf(f, "# Each key names the options it came from (gc-config(5), GPGPU-SIM\n"
		"# CONFIGURATIONS); keys not below keep the defaults of fermi-gtx470-16k.\n\n");
	for (int i = 0; i < s.g.n; i++)
		fprintf(f, "%s = %s  # source: %s\n", s.g.key[i], s.g.val[i], s.why[i]);
	gc_close_text(f, c.out);
	if (c.stats)
		write_stats(c.stats, cfg, trace, gpu.name, &s);
	if (c.verbose)
		fprintf(stderr, "gc-config: %s: %d keys%s\n", cfg, s.g.n,
			trace ? " (with trace.config)" : "");
	gc_gpgpusim_free(&s);
	return 0;
}
