/*
 * gc-dram - channels, banks and rows of the DRAM transactions gc-l2 makes.
 *
 * Reads: DRAM transactions (one record per line and event; each sector of
 * its mask is one transaction, at address + i * sector size).
 * Writes: the stream itself, unchanged, on standard output (or -o FILE),
 * so that a chain can go on; the text report on stderr with -v, to
 * --report FILE, or on standard output with --emit none (gc(7), the
 * output rule); --stats FILE: JSON.
 *
 * Every transaction is decoded with the L2's address mapping (lib/
 * addrmap.h, the same code gc-l2 slices with): channel after partition
 * indexing, bank, row.  Each bank of each channel keeps one open row
 * (open-page policy) and sees the transactions in stream order: the same
 * row is a row-buffer hit, another row a conflict, a bank not yet opened
 * an empty-row miss.  Time is the bus time of the transactions (sector
 * bytes each, partial writes still move a whole burst) at dram.bandwidth,
 * for the whole memory and for the busiest channel at its 1/channels share.
 */
#include "config/addrmap.h"
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-dram [options] [file]\n"
	"Count DRAM transactions per channel and bank, row-buffer hits and bus time.\n"
	"\n"
	"      --gpu NAME|FILE     GPU preset or file (default: the input's gpu.* keys)\n"
	"      --list-gpus         list the GPU presets and exit\n"
	"      --bandwidth GBS     DRAM bandwidth in GB/s (dram.bandwidth)\n"
	"      --channels N        memory channels (l2.channels)\n"
	"      --sub-partitions N  L2 slices per channel (l2.sub_partitions)\n"
	"      --partition-index P consecutive, bitwise-permutation, ipoly, random,\n"
	"                          ipoly-modulo (l2.partition_index)\n"
	"      --mapping STRING    address mapping, dramid@S;... (l2.mapping)\n"
	"      --emit WHAT         dram (default): pass the stream on; none: no stream,\n"
	"                          the report on stdout (or -o FILE) instead\n"
	"      --report FILE       write the text report to FILE\n"
	"  -o, --output FILE       write the stream to FILE (default: stdout)\n"
	"  -z, --gzip              compress the stream passed on\n"
	"      --force             write the stream to a terminal\n"
	"      --stats FILE        write a JSON summary to FILE\n"
	"      --progress          show progress on a terminal\n"
	"  -q, --quiet             no warnings\n"
	"  -v, --verbose           print the report on stderr\n"
	"  -h, --help              show this help and exit\n"
	"  -V, --version           show versions and exit\n";

enum { OPT_BANDWIDTH = GC_OPT_TOOL, OPT_CHANNELS, OPT_SUBS, OPT_PINDEX, OPT_MAPPING };

static const gc_gpu_keyopt keyopts[] = {
	{OPT_BANDWIDTH, "--bandwidth", "dram.bandwidth"},
	{OPT_CHANNELS, "--channels", "l2.channels"},
	{OPT_SUBS, "--sub-partitions", "l2.sub_partitions"},
	{OPT_PINDEX, "--partition-index", "l2.partition_index"},
	{OPT_MAPPING, "--mapping", "l2.mapping"},
};
#define NKEYOPTS (sizeof keyopts / sizeof keyopts[0])

struct cmdline {
	gc_common c;
	const char *input;
	const char *keyval[NKEYOPTS];
};

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		{"bandwidth", required_argument, NULL, OPT_BANDWIDTH},
		{"channels", required_argument, NULL, OPT_CHANNELS},
		{"sub-partitions", required_argument, NULL, OPT_SUBS},
		{"partition-index", required_argument, NULL, OPT_PINDEX},
		{"mapping", required_argument, NULL, OPT_MAPPING},
		GC_REPORT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		if (c == GC_OPT_EMIT) {
			static const char *const emits[] = {"dram", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			continue;
		}
		int i = gc_gpu_keyopt_find(keyopts, NKEYOPTS, c);
		if (i < 0)
			gc_usage_error("unexpected option");
		if (c == OPT_BANDWIDTH)
			(void)gc_real(keyopts[i].name, optarg, 0.001, 1e6);
		else if (c == OPT_CHANNELS || c == OPT_SUBS)
			(void)gc_num(keyopts[i].name, optarg, 1, 4096);
		cl->keyval[i] = optarg;
	}
	cl->input = gc_one_input(argc, argv);
}

/* Sectors in a mask (no popcount instruction is assumed). */
static inline unsigned pc8(unsigned x)
{
	x = x - ((x >> 1) & 0x55u);
	x = (x & 0x33u) + ((x >> 2) & 0x33u);
	return (x + (x >> 4)) & 0x0fu;
}

/* ---- counting ------------------------------------------------------------- */

struct bank {
	uint64_t open;        /* the open row, or UINT64_MAX */
	uint64_t reads, writes, hits, conflicts, empty;
};

struct chan {
	uint64_t reads, writes, read_bytes, write_bytes, hits;
};

/* One kernel's transactions (gc-dram(1), "kernels"). */
struct kstat {
	uint32_t id;
	char *name;
	uint64_t reads, writes, read_bytes, write_bytes;
};

struct dram {
	const char *input;    /* its name, for the report */
	gc_gpu_config gpu;
	gc_addrmap am;
	unsigned channels, banks, sector, sshift, nsectors;
	int line_same;        /* a line's sectors share channel, bank and row */
	struct bank *bk;      /* channels * banks */
	struct chan *ch;
	uint64_t records, kernels;
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t hits, conflicts, empty;
	struct kstat *ks;     /* the kernels so far, in order */
	size_t nks, kscap;
	struct kstat kbase;   /* the totals at the open kernel's begin */
};

/* n transactions in a row to one bank: the first meets the open row, the
 * others find it open. */
static inline void to_bank(struct dram *d, unsigned chip, unsigned bank, uint64_t row,
			   int write, unsigned n, unsigned bytes)
{
	struct chan *c = &d->ch[chip];
	struct bank *b = &d->bk[(size_t)chip * d->banks + (bank & (d->banks - 1))];
	if (write) {
		c->writes += n;
		c->write_bytes += bytes;
		b->writes += n;
	} else {
		c->reads += n;
		c->read_bytes += bytes;
		b->reads += n;
	}
	if (b->open == row)
		b->hits++;
	else if (b->open == UINT64_MAX)
		b->empty++;
	else
		b->conflicts++;
	b->hits += n - 1;
	c->hits += (b->open == row) + n - 1;
	b->open = row;
}

/* One record: every sector of its mask one transaction. */
static void count(struct dram *d, const gc_rec *r, const gc_reader *rd)
{
	unsigned mask = r->mask;
	if (!mask || (d->nsectors < 8 && (mask >> d->nsectors)))
		gc_die(GC_EXIT_DATA, "%s: record %llu (offset %llu): field mask: 0x%x is not a set "
		       "of the %u sectors of a %u-byte line", gc_reader_name(rd),
		       (unsigned long long)gc_reader_records(rd),
		       (unsigned long long)(gc_reader_bytes(rd) - gc_reader_header(rd)->record_size),
		       mask, d->nsectors, d->nsectors * d->sector);
	unsigned k = pc8(mask);
	int write = r->op != GC_LOAD;
	d->records++;
	gc_dram_addr a;
	if (d->line_same) {
		/* Every sector of the line in one bank and row. */
		gc_addrmap_decode(&d->am, r->addr, &a);
		to_bank(d, a.chip, a.bank, a.row, write, k, r->size);
		return;
	}
	unsigned q = r->size / k, rem = r->size % k, rank = 0;
	for (unsigned i = 0; mask; i++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		gc_addrmap_decode(&d->am, r->addr + ((uint64_t)i << d->sshift), &a);
		to_bank(d, a.chip, a.bank, a.row, write, 1, q + (rank < rem));
		rank++;
	}
}

static void totals(struct dram *d)
{
	for (unsigned c = 0; c < d->channels; c++) {
		d->reads += d->ch[c].reads;
		d->writes += d->ch[c].writes;
		d->read_bytes += d->ch[c].read_bytes;
		d->write_bytes += d->ch[c].write_bytes;
	}
	for (size_t i = 0; i < (size_t)d->channels * d->banks; i++) {
		d->hits += d->bk[i].hits;
		d->conflicts += d->bk[i].conflicts;
		d->empty += d->bk[i].empty;
	}
}

/* The busiest channel by transactions (the lowest number on a tie). */
static unsigned busiest(const struct dram *d)
{
	unsigned best = 0;
	for (unsigned c = 1; c < d->channels; c++)
		if (d->ch[c].reads + d->ch[c].writes > d->ch[best].reads + d->ch[best].writes)
			best = c;
	return best;
}

/* Seconds to move n transactions of sector bytes at `share` of the
 * bandwidth. */
static double bus_time(const struct dram *d, uint64_t n, double share)
{
	return (double)n * d->sector / (d->gpu.dram.bandwidth * 1e9 * share);
}

static double ratio(uint64_t n, uint64_t t)
{
	return t ? (double)n / (double)t : 0.0;
}

/* ---- kernels ------------------------------------------------------------------ */

/* The totals so far, over the channels. */
static void kernel_totals(const struct dram *d, struct kstat *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned c = 0; c < d->channels; c++) {
		t->reads += d->ch[c].reads;
		t->writes += d->ch[c].writes;
		t->read_bytes += d->ch[c].read_bytes;
		t->write_bytes += d->ch[c].write_bytes;
	}
}

static void kernel_begin(struct dram *d, const gc_kernel *k)
{
	if (d->nks == d->kscap) {
		d->kscap = d->kscap ? 2 * d->kscap : 16;
		d->ks = realloc(d->ks, d->kscap * sizeof *d->ks);
		if (!d->ks)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	struct kstat *e = &d->ks[d->nks++];
	memset(e, 0, sizeof *e);
	e->id = k->id;
	e->name = strdup(k->name);
	if (!e->name)
		gc_die(GC_EXIT_DATA, "out of memory");
	kernel_totals(d, &d->kbase);
}

static void kernel_end(struct dram *d)
{
	if (!d->nks)
		return;
	struct kstat now, *e = &d->ks[d->nks - 1];
	kernel_totals(d, &now);
	e->reads = now.reads - d->kbase.reads;
	e->writes = now.writes - d->kbase.writes;
	e->read_bytes = now.read_bytes - d->kbase.read_bytes;
	e->write_bytes = now.write_bytes - d->kbase.write_bytes;
}

static void json_kernels(gc_json *j, const struct dram *d)
{
	gc_json_arr(j, "kernels");
	for (size_t i = 0; i < d->nks; i++) {
		const struct kstat *k = &d->ks[i];
		gc_json_obj(j, NULL);
		gc_json_u64(j, "id", k->id);
		gc_json_str(j, "name", k->name);
		gc_json_u64(j, "reads", k->reads);
		gc_json_u64(j, "writes", k->writes);
		gc_json_u64(j, "read_bytes", k->read_bytes);
		gc_json_u64(j, "write_bytes", k->write_bytes);
		gc_json_close(j);
	}
	gc_json_close(j);
}

/* ---- setup ------------------------------------------------------------------- */

static void setup(struct dram *d, const struct cmdline *cl, const gc_reader *r)
{
	char why[256];
	memset(d, 0, sizeof *d);
	gc_gpu_for_stream(&d->gpu, cl->c.gpu, gc_reader_header(r));
	gc_gpu_keyopts_apply(&d->gpu, keyopts, NKEYOPTS, cl->keyval);
	gc_gpu_config_finish(&d->gpu);
	const gc_gpu_cache *l2 = &d->gpu.l2;
	if (gc_addrmap_init(&d->am, l2->mapping, l2->channels, l2->sub_partitions, l2->pindex,
			    why, sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "l2.mapping: %s", why);
	d->channels = l2->channels;
	d->banks = 1u << __builtin_popcountll(d->am.mask[GC_AM_BANK]);
	d->sector = l2->sector;
	unsigned line = l2->line;
	const char *v = gc_header_get(gc_reader_header(r), "sector_size");
	if (v) {
		char *end;
		unsigned long n = strtoul(v, &end, 10);
		if (end == v || *end || !n || n > 4096 || (n & (n - 1)))
			gc_die(GC_EXIT_DATA, "%s: header key sector_size: '%s' is not a power of "
			       "two", gc_reader_name(r), v);
		d->sector = (unsigned)n;
	}
	v = gc_header_get(gc_reader_header(r), "line_size");
	if (v) {
		char *end;
		unsigned long n = strtoul(v, &end, 10);
		if (end == v || *end || n < d->sector || n > 65536 || (n & (n - 1)))
			gc_die(GC_EXIT_DATA, "%s: header key line_size: '%s' is not a power of two "
			       "of at least the sector size", gc_reader_name(r), v);
		line = (unsigned)n;
	}
	if (line < d->sector)
		line = d->sector;
	d->nsectors = line / d->sector;
	if (d->nsectors > 8)
		gc_die(GC_EXIT_DATA, "%s: %u sectors a line; a mask holds 8", gc_reader_name(r),
		       d->nsectors);
	while ((1u << d->sshift) < d->sector)
		d->sshift++;
	unsigned lshift = d->sshift;
	while ((1u << lshift) < line)
		lshift++;
	d->line_same = lshift <= gc_addrmap_row_shift(&d->am);
	d->bk = malloc((size_t)d->channels * d->banks * sizeof *d->bk);
	d->ch = calloc(d->channels, sizeof *d->ch);
	if (!d->bk || !d->ch)
		gc_die(GC_EXIT_DATA, "out of memory");
	memset(d->bk, 0, (size_t)d->channels * d->banks * sizeof *d->bk);
	for (size_t i = 0; i < (size_t)d->channels * d->banks; i++)
		d->bk[i].open = UINT64_MAX;
}

/* ---- reports ---------------------------------------------------------------- */

static void report(FILE *f, const void *ctx)
{
	const struct dram *d = ctx;
	const char *input = d->input;
	uint64_t n = d->reads + d->writes;
	unsigned b = busiest(d);
	uint64_t bn = d->ch[b].reads + d->ch[b].writes;
	fprintf(f, "gc-dram: %s\n", input);
	fprintf(f, "gpu %s: %u channels x %u banks, %u-byte transactions, %g GB/s\n",
		d->gpu.name, d->channels, d->banks, d->sector, d->gpu.dram.bandwidth);
	fprintf(f, "records %llu, kernels %llu\n", (unsigned long long)d->records,
		(unsigned long long)d->kernels);
	fprintf(f, "transactions %llu: reads %llu (%llu bytes), writes %llu (%llu bytes)\n",
		(unsigned long long)n, (unsigned long long)d->reads,
		(unsigned long long)d->read_bytes, (unsigned long long)d->writes,
		(unsigned long long)d->write_bytes);
	fprintf(f, "row buffer: hits %llu, conflicts %llu, empty %llu, hit rate %.4f\n",
		(unsigned long long)d->hits, (unsigned long long)d->conflicts,
		(unsigned long long)d->empty, ratio(d->hits, n));
	fprintf(f, "time at %g GB/s: %.6g us; busiest channel %u: %.4f of the transactions "
		"(balanced: %.4f), %.6g us at its share\n", d->gpu.dram.bandwidth,
		bus_time(d, n, 1.0) * 1e6, b, ratio(bn, n), 1.0 / d->channels,
		bus_time(d, bn, 1.0 / d->channels) * 1e6);
	fprintf(f, "%7s %12s %12s %14s %14s %8s\n", "channel", "reads", "writes", "read_bytes",
		"write_bytes", "row_hit");
	for (unsigned c = 0; c < d->channels; c++) {
		const struct chan *p = &d->ch[c];
		fprintf(f, "%7u %12llu %12llu %14llu %14llu %8.4f\n", c,
			(unsigned long long)p->reads, (unsigned long long)p->writes,
			(unsigned long long)p->read_bytes, (unsigned long long)p->write_bytes,
			ratio(p->hits, p->reads + p->writes));
	}
}

static void json(FILE *f, const struct dram *d, const char *input)
{
	uint64_t n = d->reads + d->writes;
	unsigned b = busiest(d);
	uint64_t bn = d->ch[b].reads + d->ch[b].writes;
	char buf[160];
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-dram");
	gc_json_str(&j, "input", input);
	gc_json_str(&j, "gpu", d->gpu.name);
	gc_json_obj(&j, "config");
	gc_json_u64(&j, "channels", d->channels);
	gc_json_u64(&j, "sub_partitions", d->gpu.l2.sub_partitions);
	gc_json_u64(&j, "banks", d->banks);
	gc_json_u64(&j, "sector", d->sector);
	gc_json_num(&j, "bandwidth_gbs", d->gpu.dram.bandwidth);
	gc_gpu_format(&d->gpu, gc_gpu_key_find("l2.partition_index"), buf, sizeof buf);
	gc_json_str(&j, "partition_index", buf);
	gc_json_str(&j, "mapping", d->gpu.l2.mapping);
	gc_json_close(&j);
	gc_json_u64(&j, "records", d->records);
	gc_json_u64(&j, "kernel_count", d->kernels);
	gc_json_u64(&j, "transactions", n);
	gc_json_u64(&j, "reads", d->reads);
	gc_json_u64(&j, "writes", d->writes);
	gc_json_u64(&j, "read_bytes", d->read_bytes);
	gc_json_u64(&j, "write_bytes", d->write_bytes);
	gc_json_u64(&j, "row_hits", d->hits);
	gc_json_u64(&j, "row_conflicts", d->conflicts);
	gc_json_u64(&j, "row_empty", d->empty);
	gc_json_num(&j, "row_hit_rate", ratio(d->hits, n));
	gc_json_num(&j, "time_s", bus_time(d, n, 1.0));
	gc_json_u64(&j, "busiest_channel", b);
	gc_json_num(&j, "busiest_share", ratio(bn, n));
	gc_json_num(&j, "busiest_time_s", bus_time(d, bn, 1.0 / d->channels));
	json_kernels(&j, d);
	gc_json_arr(&j, "per_channel");
	for (unsigned c = 0; c < d->channels; c++) {
		const struct chan *p = &d->ch[c];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "channel", c);
		gc_json_u64(&j, "reads", p->reads);
		gc_json_u64(&j, "writes", p->writes);
		gc_json_u64(&j, "read_bytes", p->read_bytes);
		gc_json_u64(&j, "write_bytes", p->write_bytes);
		gc_json_u64(&j, "row_hits", p->hits);
		gc_json_num(&j, "row_hit_rate", ratio(p->hits, p->reads + p->writes));
		gc_json_arr(&j, "per_bank");
		for (unsigned k = 0; k < d->banks; k++) {
			const struct bank *q = &d->bk[(size_t)c * d->banks + k];
			gc_json_obj(&j, NULL);
			gc_json_u64(&j, "bank", k);
			gc_json_u64(&j, "reads", q->reads);
			gc_json_u64(&j, "writes", q->writes);
			gc_json_u64(&j, "row_hits", q->hits);
			gc_json_u64(&j, "row_conflicts", q->conflicts);
			gc_json_u64(&j, "row_empty", q->empty);
			gc_json_close(&j);
		}
		gc_json_close(&j);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
}

/* ---- main -------------------------------------------------------------------- */

static void die_write(gc_writer *w)
{
	gc_die(GC_EXIT_DATA, "%s", gc_writer_error(w));
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	static struct dram d;
	gc_rec rec;

	gc_prog_init("gc-dram", argc, argv);
	parse_cmdline(argc, argv, &cl);
	gc_reader *r = gc_open_stream(cl.input);
	gc_require_kind(r, GC_KIND_DRAM);
	setup(&d, &cl, r);
	/* The stream goes on, unchanged, wherever stdout is, unless --emit
	 * none (gc(7): the output rule). */
	gc_writer *w = gc_open_output(&cl.c, gc_reader_header(r));

	for (;;) {
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA) {
			count(&d, &rec, r);
			if (w && gc_write(w, &rec) < 0)
				die_write(w);
		} else if (ev == GC_KBEGIN) {
			d.kernels++;
			kernel_begin(&d, gc_reader_kernel(r));
			if (w && gc_write_kbegin(w, gc_reader_kernel(r)) < 0)
				die_write(w);
		} else if (ev == GC_KEND) {
			kernel_end(&d);
			if (w && (gc_write_opcodes(w, gc_reader_opcodes(r)) < 0 ||
				  gc_write_kend(w, rec.kernel) < 0))
				die_write(w);
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
		}
		if (cl.c.progress)
			gc_progress_reader(1, r);
	}
	gc_progress_end(cl.c.progress);
	totals(&d);
	const char *input = gc_reader_name(r);
	gc_close_output(w);
	d.input = input;
	gc_write_report(&cl.c, report, &d);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &d, input);
		gc_close_text(f, cl.c.stats);
	}
	free(d.bk);
	free(d.ch);
	for (size_t i = 0; i < d.nks; i++)
		free(d.ks[i].name);
	free(d.ks);
	gc_reader_close(r);
	return 0;
}
