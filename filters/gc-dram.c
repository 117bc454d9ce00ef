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
 *
 * --queueing runs each channel's FR-FCFS controller (lib/model/dramq.h)
 * with the dram.t* timing over the transactions as they arrive: at the
 * records' times (upstream --timing), or in stream order at a rate
 * (--arrival).  --export writes the transactions for Ramulator 2 or
 * DRAMSim3.  --mapping takes Ramulator's scheme names too (gc_addrmap_
 * scheme builds their mapping string).
 */
#include "base/endian.h"
#include "config/addrmap.h"
#include "config/gpu.h"
#include "model/dramq.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	"      --mapping STRING    address mapping, dramid@S;... (l2.mapping), or a\n"
	"                          scheme: RoBaRaCoCh, ChRaBaRoCo\n"
	"      --queueing          run the FR-FCFS controller of every channel\n"
	"      --arrival WHEN      time (the records' times), bandwidth (stream order\n"
	"                          at dram.bandwidth), or a rate in GB/s; the default:\n"
	"                          time after --timing upstream, else bandwidth\n"
	"      --export FMT:FILE   write the transactions to FILE for ramulator\n"
	"                          (Ramulator 2 LoadStoreTrace) or dramsim3\n"
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

enum { OPT_BANDWIDTH = GC_OPT_TOOL, OPT_CHANNELS, OPT_SUBS, OPT_PINDEX, OPT_MAPPING,
       OPT_QUEUEING, OPT_ARRIVAL, OPT_EXPORT };
enum { ARRIVE_TIME, ARRIVE_BANDWIDTH, ARRIVE_RATE };
enum { EXPORT_NONE, EXPORT_RAMULATOR, EXPORT_DRAMSIM3 };

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
	const char *scheme;   /* --mapping with a scheme name */
	int queueing;
	int arrival;          /* ARRIVE_*, or -1: by the input */
	double rate;          /* ARRIVE_RATE: GB/s */
	int export;           /* EXPORT_* */
	const char *export_file;
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
		{"queueing", no_argument, NULL, OPT_QUEUEING},
		{"arrival", required_argument, NULL, OPT_ARRIVAL},
		{"export", required_argument, NULL, OPT_EXPORT},
		GC_REPORT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->arrival = -1;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		if (c == GC_OPT_EMIT) {
			static const char *const emits[] = {"dram", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			continue;
		}
		if (c == OPT_QUEUEING) {
			cl->queueing = 1;
			continue;
		}
		if (c == OPT_ARRIVAL) {
			if (strcmp(optarg, "time") == 0) {
				cl->arrival = ARRIVE_TIME;
			} else if (strcmp(optarg, "bandwidth") == 0) {
				cl->arrival = ARRIVE_BANDWIDTH;
			} else {
				cl->arrival = ARRIVE_RATE;
				cl->rate = gc_real("--arrival", optarg, 0.001, 1e9);
			}
			continue;
		}
		if (c == OPT_EXPORT) {
			const char *colon = strchr(optarg, ':');
			size_t n = colon ? (size_t)(colon - optarg) : 0;
			if (colon && n == 9 && strncmp(optarg, "ramulator", n) == 0)
				cl->export = EXPORT_RAMULATOR;
			else if (colon && n == 8 && strncmp(optarg, "dramsim3", n) == 0)
				cl->export = EXPORT_DRAMSIM3;
			if (!cl->export || !colon[1])
				gc_usage_error("--export: '%s' is not ramulator:FILE or dramsim3:FILE",
					       optarg);
			cl->export_file = colon + 1;
			continue;
		}
		if (c == OPT_MAPPING && (strcasecmp(optarg, "RoBaRaCoCh") == 0 ||
					 strcasecmp(optarg, "ChRaBaRoCo") == 0)) {
			cl->scheme = optarg;
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

/* Sectors in a mask (no popcount instruction is assumed): two nibbles'
 * counts from a table, fewer instructions than the bit sums. */
static inline unsigned pc8(unsigned x)
{
	static const unsigned char n[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
	return n[x & 15] + n[x >> 4 & 15];
}

/* ---- counting ------------------------------------------------------------- */

/* A bank's counts as the stream goes (a channel's are their sums:
 * totals()); one cache line. */
struct bank {
	uint64_t open;        /* the open row, or UINT64_MAX */
	uint64_t n[2], bytes[2]; /* [write]: transactions, bytes */
	uint64_t hits, conflicts, empty;
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
	gc_addrmap_tab *tab;  /* am by table, or NULL (not linear) */
	unsigned channels, banks, bshift, sector, sshift, nsectors;
	unsigned mask_lim;    /* a mask is a set of a line's sectors iff mask - 1 < mask_lim */
	int line_same;        /* a line's sectors share channel, bank and row */
	struct bank *bk;      /* channels * banks */
	struct chan *ch;
	uint64_t records, kernels;
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t hits, conflicts, empty;
	struct kstat *ks;     /* the kernels so far, in order */
	size_t nks, kscap;
	struct kstat kbase;   /* the totals at the open kernel's begin */
	char map[160];        /* the mapping string decoded with */
	const char *scheme;   /* its scheme name, or NULL */
	/* --queueing and --export */
	gc_dramq *q;
	FILE *ex;
	int export, arrival;
	double scale;         /* DRAM cycles per SM cycle (time), per transaction (else) */
	double rate;          /* GB/s of the arrivals (not time) */
	unsigned tburst;
	uint64_t ntx;         /* transactions so far */
	int timed;            /* --queueing or --export */
};

/* One export line (--export). */
static void export(struct dram *d, uint64_t addr, int write, uint64_t at)
{
	if (d->export == EXPORT_RAMULATOR)
		fprintf(d->ex, "%s 0x%llx\n", write ? "ST" : "LD", (unsigned long long)addr);
	else
		fprintf(d->ex, "0x%llx %s %llu\n", (unsigned long long)addr, write ? "WRITE" : "READ",
			(unsigned long long)at);
}

/* One transaction to the controller and the export file: its arrival in
 * DRAM cycles, at its record's time or its rank at the arrival rate. */
static inline void timed(struct dram *d, const gc_dram_addr *a, uint64_t addr, int write,
			 uint64_t time)
{
	double t = d->arrival == ARRIVE_TIME ? (double)time * d->scale : (double)d->ntx * d->scale;
	uint64_t at = (uint64_t)t;
	d->ntx++;
	if (d->q)
		gc_dramq_add(d->q, a->chip, a->bank, a->row, write, at);
	if (d->export)
		export(d, addr, write, at);
}

/* n transactions in a row to one bank: the first meets the open row, the
 * others find it open. */
static inline void bank_add(struct bank *b, uint64_t row, unsigned write, unsigned n,
			    unsigned bytes)
{
	uint64_t open = b->open;
	b->n[write] += n;
	b->bytes[write] += bytes;
	if (open == row) {
		b->hits += n;
	} else {
		b->hits += n - 1;
		if (open == UINT64_MAX)
			b->empty++;
		else
			b->conflicts++;
		b->open = row;
	}
}

static inline void to_bank(struct dram *d, unsigned chip, unsigned bank, uint64_t row,
			   int write, unsigned n, unsigned bytes)
{
	bank_add(&d->bk[((size_t)chip << d->bshift) | (bank & (d->banks - 1))], row,
		 (unsigned)write, n, bytes);
}

/* A mask that is no set of a line's sectors: record `recno` at offset
 * `off` of rd. */
__attribute__((noreturn, cold)) static void bad_mask(const struct dram *d, const gc_reader *rd,
						     unsigned mask, uint64_t recno, uint64_t off)
{
	gc_die(GC_EXIT_DATA, "%s: record %llu (offset %llu): field mask: 0x%x is not a set "
	       "of the %u sectors of a %u-byte line", gc_reader_name(rd),
	       (unsigned long long)recno, (unsigned long long)off, mask, d->nsectors,
	       d->nsectors * d->sector);
}

/* Chip, bank and row of addr. */
static inline void decode(const struct dram *d, uint64_t addr, gc_dram_addr *a)
{
	if (d->tab && !(addr >> 48))
		gc_addrmap_tab_decode(d->tab, addr, a);
	else
		gc_addrmap_bank_row(&d->am, addr, a);
}

/* A record whose sectors lie in different banks or rows: each sector
 * decoded, the bytes shared out (the first size % k get one more). */
static void count_sectors(struct dram *d, int write, unsigned mask, uint64_t addr,
			  unsigned size, uint64_t time)
{
	unsigned k = pc8(mask);
	unsigned q = size / k, rem = size % k, rank = 0;
	gc_dram_addr a;
	for (unsigned i = 0; mask; i++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		uint64_t x = addr + ((uint64_t)i << d->sshift);
		decode(d, x, &a);
		to_bank(d, a.chip, a.bank, a.row, write, 1, q + (rank < rem));
		if (d->q || d->ex)
			timed(d, &a, x, write, time);
		rank++;
	}
}

/* One record, its mask checked: every sector of its mask one
 * transaction. */
static inline void count(struct dram *d, int write, unsigned mask, uint64_t addr, unsigned size,
			 uint64_t time)
{
	d->records++;
	if (!d->line_same) {
		count_sectors(d, write, mask, addr, size, time);
		return;
	}
	/* Every sector of the line in one bank and row. */
	gc_dram_addr a;
	decode(d, addr, &a);
	to_bank(d, a.chip, a.bank, a.row, write, pc8(mask), size);
	if (d->q && !d->ex && d->arrival == ARRIVE_TIME) {
		/* the sectors' arrivals are the record's: all at once */
		gc_dramq_add_n(d->q, a.chip, a.bank, a.row, write,
			       (uint64_t)((double)time * d->scale), pc8(mask));
		d->ntx += pc8(mask);
		return;
	}
	for (unsigned m = d->timed ? mask : 0; m; m &= m - 1)
		timed(d, &a, addr + ((uint64_t)__builtin_ctz(m) << d->sshift), write, time);
}

/* A mask the line has room for: not empty, no sector past the line's. */
static inline int mask_ok(const struct dram *d, unsigned mask)
{
	return mask - 1 < d->mask_lim;
}

/* Record r, just read from rd. */
static void count_rec(struct dram *d, const gc_rec *r, const gc_reader *rd)
{
	if (!mask_ok(d, r->mask))
		bad_mask(d, rd, r->mask, gc_reader_records(rd),
			 gc_reader_bytes(rd) - gc_reader_header(rd)->record_size);
	count(d, r->op != GC_LOAD, r->mask, r->addr, r->size, r->time);
}

/*
 * count()'s common case (no time, a line in one bank and row, the
 * table's decode: every shipped mapping) for gc_read_block's block b,
 * gc_read_raw's checks fused in (gc_read_block): the first word's on a
 * change of it, the clock's on each record.  Counts the records up to
 * the first that fails them, takes those (gc_read_take) and returns how
 * many.  d's fields are read once, not once a record (the stores to the
 * banks could alias them); a bad mask is an error at its record, as in
 * count_raw.
 */
static size_t count_lines(struct dram *d, const gc_block *blk, size_t rs, gc_reader *rd)
{
	const gc_addrmap_tab *tab = d->tab;
	struct bank *bk = d->bk;
	unsigned bshift = d->bshift, bmask = d->banks - 1, lim = d->mask_lim;
	uint32_t last = GC_WORD_NONE, low = blk->low;
	const unsigned char *p = blk->p;
	size_t i = 0;
	for (; i < blk->n; i++, p += rs) {
		uint32_t w = gc_get32(p) & blk->word_mask, t = gc_get32(p + 20);
		if (w != last) {
			if (!gc_word_ok(w, blk->word_min))
				break; /* gc_read's, with its message */
			last = w;
		}
		if (t < low)
			break;
		low = t;
		uint64_t a = gc_get64(p + 24);
		unsigned mask = p[3];
		if (mask - 1 >= lim)
			bad_mask(d, rd, mask, gc_reader_records(rd) + i + 1, gc_reader_bytes(rd) + i * rs);
		gc_dram_addr x;
		gc_addrmap_tab_decode(tab, a & GC_ADDR48_MAX, &x);
		bank_add(&bk[((size_t)x.chip << bshift) | (x.bank & bmask)], x.row,
			 p[0] != GC_LOAD, pc8(mask), (unsigned)(a >> 48));
	}
	d->records += i;
	gc_read_take(rd, i, low);
	return i;
}

/* n records as gc_read_raw gives them (gc-stream(5)'s layout, rs bytes
 * apart, time base hi), the last just taken from rd: byte 0 the
 * operation, 3 the mask, 20-23 the clock's low half, 24-29 the address
 * and 30-31 the size. */
static void count_raw(struct dram *d, const unsigned char *p, size_t n, size_t rs, uint64_t hi,
		      const gc_reader *rd)
{
	for (size_t i = 0; i < n; i++, p += rs) {
		uint64_t a = gc_get64(p + 24);
		if (!mask_ok(d, p[3]))
			bad_mask(d, rd, p[3], gc_reader_records(rd) - (n - i) + 1,
				 gc_reader_bytes(rd) - (n - i) * rs);
		count(d, p[0] != GC_LOAD, p[3], a & GC_ADDR48_MAX, (unsigned)(a >> 48),
		      hi | gc_get32(p + 20));
	}
}

/* The channels' counts, the sums of their banks'. */
static void chan_totals(struct dram *d)
{
	for (unsigned c = 0; c < d->channels; c++) {
		struct chan *p = &d->ch[c];
		memset(p, 0, sizeof *p);
		for (unsigned k = 0; k < d->banks; k++) {
			const struct bank *b = &d->bk[((size_t)c << d->bshift) | k];
			p->reads += b->n[0];
			p->writes += b->n[1];
			p->read_bytes += b->bytes[0];
			p->write_bytes += b->bytes[1];
			p->hits += b->hits;
		}
	}
}

static void totals(struct dram *d)
{
	chan_totals(d);
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

/* The totals so far, over the banks. */
static void kernel_totals(const struct dram *d, struct kstat *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < (size_t)d->channels * d->banks; i++) {
		t->reads += d->bk[i].n[0];
		t->writes += d->bk[i].n[1];
		t->read_bytes += d->bk[i].bytes[0];
		t->write_bytes += d->bk[i].bytes[1];
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

/* The controller, the arrivals and the export file. */
static void setup_timed(struct dram *d, const struct cmdline *cl, const gc_reader *r)
{
	const __typeof__(d->gpu.dram) *g = &d->gpu.dram;
	char why[256];
	d->arrival = cl->arrival >= 0 ? cl->arrival
		     : (gc_reader_header(r)->optional & GC_OPT_SCHEDULED) ? ARRIVE_TIME
									   : ARRIVE_BANDWIDTH;
	d->rate = d->arrival == ARRIVE_RATE ? cl->rate : g->bandwidth;
	d->scale = d->arrival == ARRIVE_TIME ? g->clock / d->gpu.sm.clock
					     : d->sector * g->clock / (d->rate * 1e3);
	d->tburst = (g->burst + g->data_rate - 1) / g->data_rate;
	if (!d->tburst)
		d->tburst = 1;
	if (cl->queueing) {
		gc_dramq_timing t = {g->tccd, g->tccdl, g->trrd, g->trcd, g->tras, g->trp, g->trc,
				     g->tcl, g->twl, g->tcdlr, g->twr, g->trtpl, d->tburst};
		d->q = gc_dramq_new(d->channels, d->banks, g->bank_groups, g->queue, &t, why,
				    sizeof why);
		if (!d->q)
			gc_die(GC_EXIT_USAGE, "--queueing: %s", why);
	}
	d->export = cl->export;
	if (cl->export)
		d->ex = gc_open_text(cl->export_file);
	d->timed = d->q || d->ex;
}

static void setup(struct dram *d, const struct cmdline *cl, const gc_reader *r)
{
	char why[256];
	memset(d, 0, sizeof *d);
	gc_gpu_for_stream(&d->gpu, cl->c.gpu, gc_reader_header(r));
	gc_gpu_keyopts_apply(&d->gpu, keyopts, NKEYOPTS, cl->keyval);
	gc_gpu_config_finish(&d->gpu);
	const gc_gpu_cache *l2 = &d->gpu.l2;
	int pindex = l2->pindex;
	snprintf(d->map, sizeof d->map, "%s", l2->mapping);
	if (cl->scheme) {
		/* a scheme slices bits: no partition indexing */
		d->scheme = cl->scheme;
		pindex = GC_PINDEX_CONSECUTIVE;
		if (gc_addrmap_scheme(cl->scheme, l2->channels, d->gpu.dram.banks, d->gpu.dram.row,
				      d->gpu.dram.burst * d->gpu.dram.bus_width, d->map,
				      sizeof d->map, why, sizeof why) < 0)
			gc_die(GC_EXIT_USAGE, "--mapping: %s", why);
	}
	if (gc_addrmap_init(&d->am, d->map, l2->channels, l2->sub_partitions, pindex, why,
			    sizeof why) < 0)
		gc_die(GC_EXIT_USAGE, "%s: %s", cl->scheme ? "--mapping" : "l2.mapping", why);
	d->channels = l2->channels;
	d->tab = malloc(sizeof *d->tab);
	if (!d->tab)
		gc_die(GC_EXIT_DATA, "out of memory");
	if (gc_addrmap_tab_init(d->tab, &d->am) < 0) {
		free(d->tab);
		d->tab = NULL;
	}
	d->bshift = (unsigned)__builtin_popcountll(d->am.mask[GC_AM_BANK]);
	d->banks = 1u << d->bshift;
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
	d->mask_lim = (1u << d->nsectors) - 1;
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
	setup_timed(d, cl, r);
}

/* ---- reports ---------------------------------------------------------------- */

static const char *const arrival_name[] = {"time", "bandwidth", "rate"};

/* The controllers over all channels; the span is from the first arrival
 * to the end of the last data, of any channel. */
struct qsum {
	gc_dramq_chan t;
	uint64_t span;
};

static void qsum(const struct dram *d, struct qsum *s)
{
	uint64_t first = UINT64_MAX, last = 0;
	memset(s, 0, sizeof *s);
	for (unsigned c = 0; c < d->channels; c++) {
		const gc_dramq_chan *p = gc_dramq_channel(d->q, c);
		s->t.reads += p->reads;
		s->t.writes += p->writes;
		s->t.hits += p->reads + p->writes - p->empty - p->conflicts;
		s->t.empty += p->empty;
		s->t.conflicts += p->conflicts;
		s->t.read_latency += p->read_latency;
		s->t.write_latency += p->write_latency;
		s->t.queued += p->queued;
		s->t.busy += p->busy;
		if (p->reads + p->writes) {
			if (p->first < first)
				first = p->first;
			if (p->last > last)
				last = p->last;
		}
	}
	s->span = last > first && first != UINT64_MAX ? last - first : 0;
}

static double share(uint64_t n, uint64_t span, unsigned k)
{
	return span ? (double)n / ((double)span * k) : 0.0;
}

static void report_queue(FILE *f, const struct dram *d)
{
	struct qsum s;
	qsum(d, &s);
	uint64_t n = s.t.reads + s.t.writes;
	fprintf(f, "queueing: FR-FCFS, queue %u, arrival %s", d->gpu.dram.queue,
		arrival_name[d->arrival]);
	if (d->arrival != ARRIVE_TIME)
		fprintf(f, " at %g GB/s", d->rate);
	fprintf(f, ", %g MHz DRAM clock, tBURST %u; %llu cycles\n", d->gpu.dram.clock, d->tburst,
		(unsigned long long)s.span);
	for (int w = 0; w < 2; w++) {
		uint64_t k = w ? s.t.writes : s.t.reads;
		fprintf(f, "%s latency (cycles): mean %.4f, p50 %llu, p95 %llu, p99 %llu, max %llu\n",
			w ? "write" : "read", ratio(w ? s.t.write_latency : s.t.read_latency, k),
			(unsigned long long)gc_dramq_percentile(d->q, w, 0.5),
			(unsigned long long)gc_dramq_percentile(d->q, w, 0.95),
			(unsigned long long)gc_dramq_percentile(d->q, w, 0.99),
			(unsigned long long)gc_dramq_max_latency(d->q, w));
	}
	fprintf(f, "queue length %.4f, bus utilisation %.4f (per channel, mean); served: row hits "
		"%llu, empty %llu, conflicts %llu, hit rate %.4f\n",
		share(s.t.queued, s.span, d->channels), share(s.t.busy, s.span, d->channels),
		(unsigned long long)s.t.hits, (unsigned long long)s.t.empty,
		(unsigned long long)s.t.conflicts, ratio(s.t.hits, n));
	fprintf(f, "%7s %12s %12s %10s %10s %8s %8s %8s\n", "channel", "reads", "writes",
		"rd_lat", "wr_lat", "queue", "util", "row_hit");
	for (unsigned c = 0; c < d->channels; c++) {
		const gc_dramq_chan *p = gc_dramq_channel(d->q, c);
		uint64_t m = p->reads + p->writes;
		fprintf(f, "%7u %12llu %12llu %10.2f %10.2f %8.4f %8.4f %8.4f\n", c,
			(unsigned long long)p->reads, (unsigned long long)p->writes,
			ratio(p->read_latency, p->reads), ratio(p->write_latency, p->writes),
			share(p->queued, s.span, 1), share(p->busy, s.span, 1),
			ratio(m - p->empty - p->conflicts, m));
	}
}

static void json_queue(gc_json *j, const struct dram *d)
{
	struct qsum s;
	qsum(d, &s);
	uint64_t n = s.t.reads + s.t.writes;
	gc_json_obj(j, "queueing");
	gc_json_str(j, "arrival", arrival_name[d->arrival]);
	gc_json_num(j, "arrival_gbs", d->arrival == ARRIVE_TIME ? 0.0 : d->rate);
	gc_json_num(j, "clock_mhz", d->gpu.dram.clock);
	gc_json_u64(j, "queue", d->gpu.dram.queue);
	gc_json_u64(j, "tburst", d->tburst);
	gc_json_u64(j, "cycles", s.span);
	for (int w = 0; w < 2; w++) {
		char k[32];
		const char *op = w ? "write" : "read";
		snprintf(k, sizeof k, "%s_latency_mean", op);
		gc_json_num(j, k, ratio(w ? s.t.write_latency : s.t.read_latency,
					w ? s.t.writes : s.t.reads));
		static const double pc[] = {0.5, 0.95, 0.99};
		static const char *const pn[] = {"p50", "p95", "p99"};
		for (int i = 0; i < 3; i++) {
			snprintf(k, sizeof k, "%s_latency_%s", op, pn[i]);
			gc_json_u64(j, k, gc_dramq_percentile(d->q, w, pc[i]));
		}
		snprintf(k, sizeof k, "%s_latency_max", op);
		gc_json_u64(j, k, gc_dramq_max_latency(d->q, w));
	}
	gc_json_num(j, "queue_length", share(s.t.queued, s.span, d->channels));
	gc_json_num(j, "bus_utilisation", share(s.t.busy, s.span, d->channels));
	gc_json_u64(j, "row_hits", s.t.hits);
	gc_json_u64(j, "row_empty", s.t.empty);
	gc_json_u64(j, "row_conflicts", s.t.conflicts);
	gc_json_num(j, "row_hit_rate", ratio(s.t.hits, n));
	gc_json_arr(j, "per_channel");
	for (unsigned c = 0; c < d->channels; c++) {
		const gc_dramq_chan *p = gc_dramq_channel(d->q, c);
		uint64_t m = p->reads + p->writes;
		gc_json_obj(j, NULL);
		gc_json_u64(j, "channel", c);
		gc_json_num(j, "read_latency_mean", ratio(p->read_latency, p->reads));
		gc_json_num(j, "write_latency_mean", ratio(p->write_latency, p->writes));
		gc_json_num(j, "queue_length", share(p->queued, s.span, 1));
		gc_json_num(j, "bus_utilisation", share(p->busy, s.span, 1));
		gc_json_num(j, "row_hit_rate", ratio(m - p->empty - p->conflicts, m));
		gc_json_close(j);
	}
	gc_json_close(j);
	gc_json_close(j);
}

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
	if (d->q)
		report_queue(f, d);
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
	gc_json_str(&j, "mapping", d->map);
	gc_json_str(&j, "scheme", d->scheme ? d->scheme : "");
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
	if (d->q)
		json_queue(&j, d);
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
			gc_json_u64(&j, "reads", q->n[0]);
			gc_json_u64(&j, "writes", q->n[1]);
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

	size_t rs = gc_reader_header(r)->record_size;
	int lines = d.line_same && d.tab && !d.timed; /* count_lines */
	for (;;) {
		/* Data records a block at a time, passed on as they are. */
		size_t n;
		uint64_t hi;
		const unsigned char *p;
		if (lines) {
			gc_block b;
			n = gc_read_block(r, SIZE_MAX, &b) ? count_lines(&d, &b, rs, r) : 0;
			p = b.p;
			hi = b.time_hi;
		} else {
			p = gc_read_raw(r, SIZE_MAX, &n, &hi);
			if (n)
				count_raw(&d, p, n, rs, hi, r);
		}
		if (n) {
			if (w && gc_write_raw(w, p, n, hi) < 0)
				die_write(w);
			if (cl.c.progress)
				gc_progress_reader_block(1, r);
			continue;
		}
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA) {
			count_rec(&d, &rec, r);
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
	if (d.q)
		gc_dramq_drain(d.q);
	if (d.ex)
		gc_close_text(d.ex, cl.export_file);
	const char *input = gc_reader_name(r);
	gc_close_output(w);
	d.input = input;
	gc_write_report(&cl.c, report, &d);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		json(f, &d, input);
		gc_close_text(f, cl.c.stats);
	}
	gc_dramq_free(d.q);
	free(d.tab);
	free(d.bk);
	free(d.ch);
	for (size_t i = 0; i < d.nks; i++)
		free(d.ks[i].name);
	free(d.ks);
	gc_reader_close(r);
	return 0;
}
