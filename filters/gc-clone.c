/*
 * gc-clone - a statistical memory proxy of a workload (seed 002, G-MAP):
 * an accesses stream generated from a gc-profile(5) profile.
 *
 * Reads: a profile (text, as gc-profile writes it).
 * Writes: one access stream (gc-stream(5)), a kernel per profile kernel
 * (or those --kernel names), its records in the order of a trace: block
 * by block, warp by warp, each warp's instructions in seq order, their
 * lanes in order; unscheduled (sm 0, time 0).  The engine is
 * lib/proxy/clone.c (clone.h); this file is its command line.
 */
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "proxy/clone.h"
#include "proxy/profile.h"
#include "report/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4096 /* records a call of the engine hands out */
#define KERNEL_LIST_MAX 4096

static const char help[] =
	"Usage: gc-clone [options] PROFILE\n"
	"Generate an access stream from a gc-profile(5) profile (a G-MAP proxy).\n"
	"\n"
	"      --seed S         seed of the draws, 0 to 2^64-1 (default 1)\n"
	"      --scale F        about F times the blocks, 0 < F <= 1000 (default 1)\n"
	"      --kernel K[,K]   only the kernels with these ids; repeatable\n"
	"      --ablate LIST    reduce components, a comma list of q, runs, pe, pa,\n"
	"                       pr, extent (see gc-clone(1))\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --emit WHAT      accesses (default): write the stream; none: no stream,\n"
	"                       the report on stdout (or -o FILE) instead\n"
	"      --report FILE    write the report (-v's) to FILE\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --gpu NAME|FILE  GPU preset (recorded in the header)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print the report (a summary per kernel) on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_SEED = GC_OPT_TOOL, OPT_SCALE, OPT_KERNEL, OPT_ABLATE };

static const struct {
	const char *name;
	unsigned bit;
} ablations[] = {
	{"q", GC_ABL_Q}, {"runs", GC_ABL_RUNS}, {"pe", GC_ABL_PE},
	{"pa", GC_ABL_PA}, {"pr", GC_ABL_PR}, {"extent", GC_ABL_EXTENT},
};
#define NABL (sizeof ablations / sizeof ablations[0])

struct cmdline {
	gc_common c;
	const char *input;
	gc_clone_opts o;
	uint32_t kernel[KERNEL_LIST_MAX];
	size_t nkernel;
};

static void parse_ablate(struct cmdline *cl, const char *arg)
{
	const char *s = arg;
	for (;;) {
		size_t n = strcspn(s, ",");
		size_t i;
		for (i = 0; i < NABL; i++)
			if (strlen(ablations[i].name) == n && strncmp(s, ablations[i].name, n) == 0)
				break;
		if (i == NABL)
			gc_usage_error("--ablate: '%.*s' is not q, runs, pe, pa, pr or extent",
				       (int)n, s);
		cl->o.ablate |= ablations[i].bit;
		if (!s[n])
			break;
		s += n + 1;
	}
}

static void parse_kernels(struct cmdline *cl, const char *arg)
{
	char buf[64];
	const char *s = arg;
	for (;;) {
		size_t n = strcspn(s, ",");
		if (n == 0 || n >= sizeof buf)
			gc_usage_error("--kernel: '%s' is not a list of kernel ids", arg);
		memcpy(buf, s, n);
		buf[n] = 0;
		if (cl->nkernel == KERNEL_LIST_MAX)
			gc_usage_error("--kernel: more than %d ids", KERNEL_LIST_MAX);
		cl->kernel[cl->nkernel++] = (uint32_t)gc_num("--kernel", buf, 0, UINT32_MAX);
		if (!s[n])
			break;
		s += n + 1;
	}
}

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"seed", required_argument, NULL, OPT_SEED},
		{"scale", required_argument, NULL, OPT_SCALE},
		{"kernel", required_argument, NULL, OPT_KERNEL},
		{"ablate", required_argument, NULL, OPT_ABLATE},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->o.seed = 1;
	cl->o.scale = 1;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"accesses", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			break;
		}
		case OPT_SEED: cl->o.seed = gc_num("--seed", optarg, 0, UINT64_MAX); break;
		case OPT_SCALE:
			cl->o.scale = gc_real("--scale", optarg, 0, 1000);
			if (!(cl->o.scale > 0))
				gc_usage_error("--scale: %g is not above 0", cl->o.scale);
			break;
		case OPT_KERNEL: parse_kernels(cl, optarg); break;
		case OPT_ABLATE: parse_ablate(cl, optarg); break;
		default: gc_usage_error("unexpected option");
		}
	}
	if (optind == argc)
		gc_usage_error("missing PROFILE (a gc-profile(5) file, or - for standard input)");
	cl->input = gc_one_input(argc, argv);
}

/* ---- the profile and its kernels ---------------------------------------------- */

struct job {
	const gc_pkernel *pk;
	gc_cloner *c;
	uint64_t threads, accesses, insts;
};

static int wanted(const struct cmdline *cl, uint32_t id)
{
	if (cl->nkernel == 0)
		return 1;
	for (size_t i = 0; i < cl->nkernel; i++)
		if (cl->kernel[i] == id)
			return 1;
	return 0;
}

/* A cloner per kernel wanted, every one checked before any output. */
static struct job *make_jobs(const struct cmdline *cl, const gc_profile *p, const char *name,
			     size_t *njobs)
{
	struct job *jobs = gc_xcalloc(p->nkernel ? p->nkernel : 1, sizeof *jobs);
	size_t n = 0;
	for (size_t i = 0; i < cl->nkernel; i++) {
		uint32_t k;
		for (k = 0; k < p->nkernel; k++)
			if (p->kern[k].k.id == cl->kernel[i])
				break;
		if (k == p->nkernel)
			gc_die(GC_EXIT_DATA, "%s: --kernel %u: no such kernel in the profile", name,
			       cl->kernel[i]);
	}
	for (uint32_t k = 0; k < p->nkernel; k++) {
		if (!wanted(cl, p->kern[k].k.id))
			continue;
		gc_cloner *c = gc_cloner_new(&p->kern[k], p->warp_size, &cl->o);
		if (!c)
			gc_die(GC_EXIT_DATA, "out of memory");
		if (gc_cloner_error(c))
			gc_die(GC_EXIT_DATA, "%s: %s", name, gc_cloner_error(c));
		jobs[n].pk = &p->kern[k];
		jobs[n].c = c;
		n++;
	}
	*njobs = n;
	return jobs;
}

static void set_header(gc_header *h, const struct cmdline *cl, const gc_profile *p)
{
	char buf[128];
	int bad = 0;
	gc_header_init(h, GC_KIND_ACCESS);
	bad |= gc_header_set(h, "source_format", "gc-clone") < 0;
	snprintf(buf, sizeof buf, "%u", p->warp_size);
	bad |= gc_header_set(h, "warp_size", buf) < 0;
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)cl->o.seed);
	bad |= gc_header_set(h, "clone.seed", buf) < 0;
	snprintf(buf, sizeof buf, "%.17g", cl->o.scale);
	bad |= gc_header_set(h, "clone.scale", buf) < 0;
	if (cl->o.ablate) {
		buf[0] = 0;
		for (size_t i = 0; i < NABL; i++)
			if (cl->o.ablate & ablations[i].bit) {
				if (buf[0])
					strcat(buf, ",");
				strcat(buf, ablations[i].name);
			}
		bad |= gc_header_set(h, "clone.ablate", buf) < 0;
	}
	bad |= gc_header_set(h, "clone.profile_source_format",
			     p->source_format[0] ? p->source_format : "-") < 0;
	if (cl->c.gpu) {
		gc_gpu_config gpu;
		gc_gpu_for_stream(&gpu, cl->c.gpu, NULL);
		gc_gpu_config_finish(&gpu);
		gc_gpu_config_header(&gpu, cl->c.gpu, h);
	}
	bad |= gc_header_add_provenance(h, gc_cmdline()) < 0;
	if (bad)
		gc_die(GC_EXIT_DATA, "out of memory");
}

/* ---- running ---------------------------------------------------------------- */

static void die_write(gc_writer *w)
{
	char msg[700];
	snprintf(msg, sizeof msg, "%s", gc_writer_error(w));
	gc_writer_free(w);
	gc_die(GC_EXIT_DATA, "%s", msg);
}

/* The records the profile's kernels would have at this scale, for
 * --progress. */
static uint64_t expected(const struct job *jobs, size_t n)
{
	double t = 0;
	for (size_t i = 0; i < n; i++) {
		const gc_kernel *k = gc_cloner_kernel(jobs[i].c);
		t += (double)jobs[i].pk->accesses * (double)gc_kernel_blocks(k) /
		     (double)gc_kernel_blocks(&jobs[i].pk->k);
	}
	return (uint64_t)t;
}

static void run(struct job *jb, gc_writer *w, const char *name, int progress, uint64_t *done,
		uint64_t total)
{
	static gc_rec recs[BATCH];
	const gc_kernel *k = gc_cloner_kernel(jb->c);
	uint32_t last_block = UINT32_MAX, last_seq = 0, last_pc = 0;
	uint16_t last_warp = 0;
	if (w && gc_write_kbegin(w, k) < 0) /* w NULL: --emit none */
		die_write(w);
	for (;;) {
		size_t n = gc_cloner_next(jb->c, recs, BATCH);
		if (n == (size_t)-1) {
			if (w)
				gc_writer_free(w);
			gc_die(GC_EXIT_DATA, "%s: %s", name, gc_cloner_error(jb->c));
		}
		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++) {
			const gc_rec *r = &recs[i];
			if (r->block != last_block || r->warp != last_warp || r->seq != last_seq ||
			    r->pc != last_pc) {
				jb->insts++;
				last_block = r->block;
				last_warp = r->warp;
				last_seq = r->seq;
				last_pc = r->pc;
			}
			if (w && gc_write(w, r) < 0)
				die_write(w);
		}
		jb->accesses += n;
		*done += n;
		gc_progress(progress, *done * GC_RECORD_BASE, total * GC_RECORD_BASE);
	}
	if (w && gc_write_kend(w, k->id) < 0)
		die_write(w);
	jb->threads = gc_kernel_blocks(k) * gc_kernel_threads_per_block(k);
}

/* What the report and --stats say. */
struct summary {
	const struct job *jobs;
	size_t n;
	uint64_t threads, accesses;
};

/* The text report (-v, --report, --emit none): a line per kernel and the
 * totals. */
static void report(FILE *f, const void *ctx)
{
	const struct summary *sm = ctx;
	for (size_t i = 0; i < sm->n; i++) {
		const struct job *jb = &sm->jobs[i];
		const gc_kernel *k = gc_cloner_kernel(jb->c);
		fprintf(f, "%s: kernel %u %s: %ux%ux%u blocks of %ux%ux%u, %llu threads: "
			"%llu accesses in %llu warp instructions (the profile's: %llu)\n",
			gc_progname, k->id, k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0],
			k->block[1], k->block[2], (unsigned long long)jb->threads,
			(unsigned long long)jb->accesses, (unsigned long long)jb->insts,
			(unsigned long long)jb->pk->accesses);
	}
	fprintf(f, "%s: %zu kernel(s), %llu threads, %llu accesses\n", gc_progname, sm->n,
		(unsigned long long)sm->threads, (unsigned long long)sm->accesses);
}

static void write_stats(const struct cmdline *cl, const char *name, const gc_header *h,
			const struct job *jobs, size_t n)
{
	struct summary sm = {jobs, n, 0, 0};
	for (size_t i = 0; i < n; i++) {
		sm.threads += jobs[i].threads;
		sm.accesses += jobs[i].accesses;
	}
	if (cl->c.stats) {
		FILE *f = gc_open_text(cl->c.stats);
		gc_json j;
		gc_json_begin(&j, f);
		gc_json_str(&j, "tool", "gc-clone");
		gc_json_str(&j, "input", name);
		gc_json_str(&j, "gpu", gc_gpu_header_named(h));
		gc_json_obj(&j, "config");
		gc_json_u64(&j, "seed", cl->o.seed);
		gc_json_num(&j, "scale", cl->o.scale);
		gc_json_close(&j);
		gc_json_u64(&j, "kernel_count", n);
		gc_json_u64(&j, "threads", sm.threads);
		gc_json_u64(&j, "accesses", sm.accesses);
		gc_json_arr(&j, "kernels");
		for (size_t i = 0; i < n; i++) {
			const gc_kernel *k = gc_cloner_kernel(jobs[i].c);
			gc_json_obj(&j, NULL);
			gc_json_u64(&j, "id", k->id);
			gc_json_str(&j, "name", k->name);
			gc_json_u64(&j, "blocks", gc_kernel_blocks(k));
			gc_json_u64(&j, "threads", jobs[i].threads);
			gc_json_u64(&j, "accesses", jobs[i].accesses);
			gc_json_u64(&j, "mem_instructions", jobs[i].insts);
			gc_json_u64(&j, "profile_accesses", jobs[i].pk->accesses);
			gc_json_close(&j);
		}
		gc_json_close(&j);
		gc_json_end(&j);
		gc_close_text(f, cl->c.stats);
	}
	gc_write_report(&cl->c, report, &sm);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	gc_profile p;
	gc_header h;
	char err[512];
	size_t len, njobs;

	gc_prog_init("gc-clone", argc, argv);
	parse_cmdline(argc, argv, &cl);
	const char *name = strcmp(cl.input, "-") == 0 ? "stdin" : cl.input;
	char *text = gc_read_text_file(cl.input, &len);
	gc_profile_init(&p);
	if (gc_profile_parse(text, len, name, &p, err, sizeof err) < 0)
		gc_die(GC_EXIT_DATA, "%s", err);
	free(text);
	struct job *jobs = make_jobs(&cl, &p, name, &njobs);
	set_header(&h, &cl, &p);

	gc_writer *w = gc_open_output(&cl.c, &h);
	uint64_t done = 0, total = expected(jobs, njobs);
	for (size_t i = 0; i < njobs; i++)
		run(&jobs[i], w, name, cl.c.progress, &done, total);
	gc_close_output(w);
	gc_progress_end(cl.c.progress);
	write_stats(&cl, name, &h, jobs, njobs);
	for (size_t i = 0; i < njobs; i++)
		gc_cloner_free(jobs[i].c);
	free(jobs);
	gc_header_free(&h);
	gc_profile_free(&p);
	return 0;
}
