/*
 * gc-profile - a statistical memory profile of a workload (G-MAP, seed
 * 002 §4): per kernel, its dominant thread profiles and their frequencies,
 * the base addresses and the stride and reuse distributions, as the text
 * of gc-profile(5), from which gc-clone generates a proxy.
 *
 * Reads: an accesses stream.  Writes: the profile, to standard output or
 * -o FILE, once the whole stream was read and verified (a truncated or bad
 * stream writes nothing).  The engine is lib/proxy/profiler.h; the text
 * form lib/proxy/profile.h.
 */
#include "prog/prog.h"
#include "proxy/profile.h"
#include "proxy/profiler.h"
#include "report/json.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-profile [options] [file]\n"
	"Profile an accesses stream into a G-MAP statistical profile (gc-profile(5)).\n"
	"\n"
	"      --similarity TH     clustering threshold of the thread profiles, 0 to 1\n"
	"                          (default 0.9)\n"
	"      --exact N           exact values kept per distribution (default 16)\n"
	"      --reuse-depth D     reuse distances measured up to D (default 16, at most 256)\n"
	"      --max-profiles N    profiles per kernel (default 64)\n"
	"      --max-runs N        keep the threads' runs of profiles when there are at\n"
	"                          most N (default 64; 0: never)\n"
	"      --live-warps N      warps whose state is kept live at once (default 4096);\n"
	"                          one retired and seen again measures reuse afresh\n"
	"      --obfuscate[=SEED]  move the base addresses to random places (default seed 1)\n"
	"  -o, --output FILE       write the profile to FILE (default: stdout)\n"
	"      --stats FILE        write a JSON summary to FILE\n"
	"      --progress          show progress on a terminal\n"
	"  -q, --quiet             no warnings\n"
	"  -v, --verbose           print a summary per kernel and the sizes on stderr\n"
	"  -h, --help              show this help and exit\n"
	"  -V, --version           show versions and exit\n";

enum {
	OPT_SIMILARITY = GC_OPT_TOOL,
	OPT_EXACT,
	OPT_REUSE_DEPTH,
	OPT_MAX_PROFILES,
	OPT_MAX_RUNS,
	OPT_OBFUSCATE,
	OPT_LIVE_WARPS,
};

#define BATCH 256 /* data records read at once */

struct cmdline {
	gc_common c;
	const char *input;
	gc_profiler_opts o;
	int obfuscate;
	uint64_t seed;
};

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_BASIC_LONGOPTS,
		{"stats", required_argument, NULL, GC_OPT_STATS},
		{"progress", no_argument, NULL, GC_OPT_PROGRESS},
		{"similarity", required_argument, NULL, OPT_SIMILARITY},
		{"exact", required_argument, NULL, OPT_EXACT},
		{"reuse-depth", required_argument, NULL, OPT_REUSE_DEPTH},
		{"max-profiles", required_argument, NULL, OPT_MAX_PROFILES},
		{"max-runs", required_argument, NULL, OPT_MAX_RUNS},
		{"obfuscate", optional_argument, NULL, OPT_OBFUSCATE},
		{"live-warps", required_argument, NULL, OPT_LIVE_WARPS},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	gc_profiler_opts_default(&cl->o);
	cl->seed = 1;
	while ((c = gc_getopt(argc, argv, "hVqvo:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_SIMILARITY: cl->o.similarity = gc_real("--similarity", optarg, 0, 1); break;
		case OPT_EXACT:
			cl->o.max_exact = (uint32_t)gc_num("--exact", optarg, 0, GC_PDIST_EXACT_MAX);
			break;
		case OPT_REUSE_DEPTH:
			cl->o.reuse_depth = (uint32_t)gc_num("--reuse-depth", optarg, 1,
							     GC_PROF_REUSE_DEPTH_MAX);
			break;
		case OPT_MAX_PROFILES:
			cl->o.max_profiles = (uint32_t)gc_num("--max-profiles", optarg, 1, 1u << 20);
			break;
		case OPT_MAX_RUNS:
			cl->o.max_runs = (uint32_t)gc_num("--max-runs", optarg, 0, 1u << 20);
			break;
		case OPT_OBFUSCATE:
			cl->obfuscate = 1;
			if (optarg)
				cl->seed = gc_num("--obfuscate", optarg, 0, UINT64_MAX);
			break;
		case OPT_LIVE_WARPS:
			cl->o.live_warps = (uint32_t)gc_num("--live-warps", optarg, 1, 1u << 24);
			break;
		default: gc_usage_error("unexpected option");
		}
	}
	cl->input = gc_one_input(argc, argv);
}

/* ---- the summaries ------------------------------------------------------------ */

/* n with thousands separators: "1,234,567". */
static const char *grouped(uint64_t n, char *buf, size_t len)
{
	char digits[32];
	int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
	size_t o = 0;
	for (int i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static void kernel_summary(const gc_pkernel *k)
{
	fprintf(stderr, "%s: kernel %u %s: %llu threads, %llu accesses, %u insts, %u profiles (Q",
		gc_progname, k->k.id, k->k.name, (unsigned long long)k->threads,
		(unsigned long long)k->accesses, k->ninst, k->nprof);
	for (uint32_t i = 0; i < k->nprof; i++)
		fprintf(stderr, " %.4g", (double)k->prof[i].threads / (double)k->threads);
	fprintf(stderr, "), %u runs\n", k->nrun);
}

static void write_stats(FILE *f, const char *input, const gc_profile *p, uint64_t accesses,
			uint64_t pbytes, uint64_t sbytes, uint64_t resurrected)
{
	gc_json j;
	uint64_t threads = 0;
	for (uint32_t i = 0; i < p->nkernel; i++)
		threads += p->kern[i].threads;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", gc_progname);
	gc_json_str(&j, "input", input);
	gc_json_u64(&j, "kernel_count", p->nkernel);
	gc_json_u64(&j, "threads", threads);
	gc_json_u64(&j, "accesses", accesses);
	gc_json_u64(&j, "profile_bytes", pbytes);
	gc_json_u64(&j, "stream_bytes", sbytes);
	gc_json_num(&j, "profile_share", sbytes ? (double)pbytes / (double)sbytes : 0.0);
	gc_json_u64(&j, "resurrected_warps", resurrected);
	gc_json_arr(&j, "kernels");
	for (uint32_t i = 0; i < p->nkernel; i++) {
		const gc_pkernel *k = &p->kern[i];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "id", k->k.id);
		gc_json_str(&j, "name", k->k.name);
		gc_json_u64(&j, "threads", k->threads);
		gc_json_u64(&j, "accesses", k->accesses);
		gc_json_u64(&j, "static_instructions", k->ninst);
		gc_json_u64(&j, "profiles", k->nprof);
		gc_json_arr(&j, "profile_threads");
		for (uint32_t q = 0; q < k->nprof; q++)
			gc_json_u64(&j, NULL, k->prof[q].threads);
		gc_json_close(&j);
		gc_json_u64(&j, "runs", k->nrun);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
}

/* ---- main -------------------------------------------------------------------- */

/* The warp size: the header's warp_size, else 32. */
static unsigned warp_size(const gc_reader *r)
{
	const char *v = gc_header_get(gc_reader_header(r), "warp_size");
	if (!v)
		return 32;
	char *end;
	unsigned long n = strtoul(v, &end, 10);
	if (end == v || *end || n < 1 || n > 256)
		gc_die(GC_EXIT_DATA, "%s: header key warp_size: '%s' is not a number from 1 to 256",
		       gc_reader_name(r), v);
	return (unsigned)n;
}

static void setup(gc_profile *prof, const struct cmdline *cl, const gc_reader *r, unsigned ws)
{
	gc_profile_init(prof);
	prof->version = GC_PROFILE_VERSION;
	prof->warp_size = ws;
	const char *sf = gc_header_get(gc_reader_header(r), "source_format");
	snprintf(prof->source_format, sizeof prof->source_format, "%s", sf ? sf : "");
	prof->similarity = cl->o.similarity;
	prof->max_exact = cl->o.max_exact;
	prof->reuse_depth = cl->o.reuse_depth;
	prof->max_profiles = cl->o.max_profiles;
	prof->max_runs = cl->o.max_runs;
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	static gc_rec recs[BATCH];
	static uint64_t nums[BATCH];
	gc_profile prof;
	gc_pkernel k;

	gc_prog_init("gc-profile", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	gc_require_kind(r, GC_KIND_ACCESS);
	unsigned ws = warp_size(r);
	setup(&prof, &cl, r, ws);
	gc_profiler *p = gc_profiler_new(&cl.o, ws);
	if (!p)
		gc_die(GC_EXIT_DATA, "out of memory");

	for (;;) {
		size_t n = gc_read_data(r, recs, nums, BATCH);
		for (size_t i = 0; i < n; i++)
			if (gc_profiler_add(p, &recs[i]) < 0) {
				gc_progress_end(cl.c.progress);
				gc_die(GC_EXIT_DATA, "%s: record %llu: %s", gc_reader_name(r),
				       (unsigned long long)nums[i], gc_profiler_error(p));
			}
		if (cl.c.progress)
			gc_progress_reader(1, r);
		if (n)
			continue;
		int ev = gc_read(r, &recs[0]);
		int rc = 0;
		if (ev == GC_DATA) {
			rc = gc_profiler_add(p, &recs[0]);
		} else if (ev == GC_KBEGIN) {
			rc = gc_profiler_kbegin(p, gc_reader_kernel(r));
		} else if (ev == GC_KEND) {
			rc = gc_profiler_kend(p, &k);
			if (rc == 0) {
				if (cl.c.verbose)
					kernel_summary(&k);
				if (gc_profile_add_kernel(&prof, &k) < 0)
					gc_die(GC_EXIT_DATA, "out of memory");
			}
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (rc < 0) {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s: record %llu: %s", gc_reader_name(r),
			       (unsigned long long)gc_reader_records(r), gc_profiler_error(p));
		}
	}
	gc_progress_end(cl.c.progress);
	uint64_t accesses = 0;
	for (uint32_t i = 0; i < prof.nkernel; i++)
		accesses += prof.kern[i].accesses;
	if (cl.obfuscate) {
		if (gc_profile_obfuscate(&prof, cl.seed) < 0)
			gc_die(GC_EXIT_DATA, "out of memory");
		prof.obfuscated = 1;
	}

	/* The text in memory first: its size is known before anything goes out. */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m || gc_profile_write(m, &prof) < 0 || fclose(m) != 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	uint64_t sbytes = gc_reader_bytes(r);
	if (cl.c.verbose) {
		char a[32], b[32];
		fprintf(stderr, "%s: profile %s bytes for a %s-byte stream (%.2f%%)\n", gc_progname,
			grouped(len, a, sizeof a), grouped(sbytes, b, sizeof b),
			sbytes ? 100.0 * (double)len / (double)sbytes : 0.0);
		if (gc_profiler_resurrected(p))
			fprintf(stderr,
				"%s: %llu warps came back after their retirement (more than %u "
				"live at once): their reuse distances restarted\n",
				gc_progname, (unsigned long long)gc_profiler_resurrected(p),
				cl.o.live_warps);
	}
	FILE *f = gc_open_text(cl.c.out);
	fwrite(text, 1, len, f);
	gc_close_text(f, cl.c.out);
	if (cl.c.stats) {
		FILE *s = gc_open_text(cl.c.stats);
		write_stats(s, gc_reader_name(r), &prof, accesses, len, sbytes, gc_profiler_resurrected(p));
		gc_close_text(s, cl.c.stats);
	}
	free(text);
	gc_profile_free(&prof);
	gc_profiler_free(p);
	gc_reader_close(r);
	return 0;
}
