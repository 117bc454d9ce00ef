/*
 * gc-coalesce - merge each warp instruction's lane accesses into cache-line
 * requests with a sector mask (seed 000 §4.1, reference §3.6).
 *
 * Reads: an access stream (usually scheduled by gc-sched).
 * Writes: a request stream: one record per line (per lane group, under the
 * Fermi rule) that a warp instruction touches, in the instruction's place
 * and with its timestamp, lines in the order of the first lane touching
 * them.  A request's mask holds the sectors touched, its byte count the
 * distinct bytes.
 *
 * A warp instruction is the run of consecutive records of one warp with one
 * sequence number (block, warp, seq): lanes are matched by the instruction
 * they belong to, never by counting them.  Shared-memory lanes do not go to
 * the caches: they are counted, with their bank conflicts, and not written.
 * Atomics are flagged bypass-L1, since they are performed at L2.
 */
#include "base/endian.h"
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 256  /* the byte map of a line: 4 x 64 bits */
#define MASK_BITS 8         /* sectors a request mask can name */
#define BANKS 32            /* shared memory: 32 banks of 4-byte words */
#define BANK_WORD 4

enum arch { ARCH_GPU = -1, ARCH_SECTOR, ARCH_FERMI };
static const char *const arch_names[] = {"sector", "fermi"};

static const char help[] =
	"Usage: gc-coalesce [options] [file]\n"
	"Merge each warp instruction's lane accesses into line requests with a sector mask.\n"
	"\n"
	"      --arch A         coalescing rule: sector (32-byte sectors) or fermi\n"
	"                       (8-byte accesses per half warp, 16-byte per quarter warp)\n"
	"                       (default: from the GPU's coalesce.arch)\n"
	"      --gpu NAME|FILE  GPU preset or file (default: the input's, else fermi-gtx470-16k)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"      --emit WHAT      requests (default): write the stream; none: no stream,\n"
	"                       the report on stdout (or -o FILE) instead\n"
	"      --report FILE    write the report (-v's) to FILE\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print a summary on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_ARCH = GC_OPT_TOOL };

struct cmdline {
	gc_common c;
	const char *input;
	int arch;
};

/* The bytes one instruction touches in one line (one lane group, one
 * space). */
struct part {
	uint64_t line;
	uint32_t group;
	uint8_t space;
	uint64_t bits[LINE_MAX_BYTES / 64];
};

struct stats {
	uint64_t accesses, instructions, requests, sectors, bytes;
	uint64_t straddling, atomics;
	uint64_t space_accesses[GC_NSPACES], space_requests[GC_NSPACES];
	/* shared memory */
	uint64_t sh_insts, sh_wavefronts, sh_conflicted, sh_max_degree;
	uint64_t req_hist[34]; /* requests per instruction: 0..32, 33 = more */
};

struct coal {
	const struct cmdline *cl;
	gc_gpu_config gpu;
	gc_reader *r;
	gc_writer *w;
	int arch;
	unsigned line, sector, lshift;
	uint64_t lmask;

	/* the instruction being gathered */
	int open;
	gc_rec first;       /* its first lane: the fields requests inherit */
	struct part *p;
	size_t np, pcap;
	size_t last;        /* the part the previous lane used */
	uint32_t *words;    /* shared memory: words touched */
	size_t nwords, wcap;
	int has_shared, has_cached;
	/* the open instruction's bytes that its lanes repeat (add_raw):
	 * op and warp, block and pc, seq; the compute field's place */
	uint64_t key_ow, key_bp;
	uint32_t key_seq;
	unsigned coff;      /* 40 with the compute flag, else 0 ... */
	uint64_t cmask;     /* ... and all ones, else 0 */
	uint64_t back;      /* the record added is this many before the last read */

	struct stats s;
};

/* ---- command line ------------------------------------------------------ */

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"arch", required_argument, NULL, OPT_ARCH},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->arch = ARCH_GPU;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_ARCH:
			if (strcmp(optarg, "sector") == 0)
				cl->arch = ARCH_SECTOR;
			else if (strcmp(optarg, "fermi") == 0)
				cl->arch = ARCH_FERMI;
			else
				gc_usage_error("--arch: '%s' is not sector or fermi", optarg);
			break;
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"requests", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			break;
		}
		default: gc_usage_error("unexpected option");
		}
	}
	cl->input = gc_one_input(argc, argv);
}


/* ---- the GPU and the rule ----------------------------------------------- */

static void configure(struct coal *k)
{
	const struct cmdline *cl = k->cl;
	gc_gpu_for_stream(&k->gpu, cl->c.gpu, gc_reader_header(k->r));
	/* --arch overrides coalesce.arch: fermi, or the first sectored
	 * generation unless the GPU's already is one. */
	if (cl->arch == ARCH_FERMI)
		gc_gpu_config_option(&k->gpu, "--arch", "coalesce.arch", "fermi");
	else if (cl->arch == ARCH_SECTOR && !gc_gpu_coalesce_sectored(&k->gpu))
		gc_gpu_config_option(&k->gpu, "--arch", "coalesce.arch", "maxwell");
	gc_gpu_config_finish(&k->gpu);
	k->arch = gc_gpu_coalesce_sectored(&k->gpu) ? ARCH_SECTOR : ARCH_FERMI;
	k->line = k->gpu.l1.line;
	if (k->line < 32 || k->line > LINE_MAX_BYTES || (k->line & (k->line - 1)))
		gc_die(GC_EXIT_USAGE, "%s: l1.line %u: gc-coalesce takes lines of 32 to %d bytes, "
		       "a power of two", k->gpu.name, k->line, LINE_MAX_BYTES);
	k->sector = k->arch == ARCH_SECTOR ? 32 : k->line;
	if (k->line / k->sector > MASK_BITS)
		gc_die(GC_EXIT_USAGE, "%s: l1.line %u has more than %d 32-byte sectors",
		       k->gpu.name, k->line, MASK_BITS);
	k->lshift = 0;
	while ((1u << k->lshift) < k->line)
		k->lshift++;
	k->lmask = ~(uint64_t)(k->line - 1);
}

static void set_header(struct coal *k, gc_header *h)
{
	char buf[32];
	const gc_header *in = gc_reader_header(k->r);
	if (gc_header_copy(h, in) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	h->kind = GC_KIND_REQUEST;
	/* A request has no reuse distance of its own (an access's is not
	 * its line's): the flag goes.  The compute field stays, the
	 * instruction's. */
	h->optional &= ~(uint32_t)GC_OPT_DISTANCE;
	h->record_size = (uint16_t)gc_record_size_min(h->optional);
	if (gc_header_add_provenance(h, gc_cmdline()) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	gc_gpu_config_header(&k->gpu, k->cl->c.gpu, h);
	gc_header_set(h, "coalesce.arch", arch_names[k->arch]);
	snprintf(buf, sizeof buf, "%u", k->line);
	gc_header_set(h, "line_size", buf);
	snprintf(buf, sizeof buf, "%u", k->sector);
	if (gc_header_set(h, "sector_size", buf) < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
}

/* ---- shared memory ------------------------------------------------------ */

/* Bank conflicts of one instruction: the lanes' 4-byte words, 32 banks; a
 * word several lanes read is one access (broadcast).  The degree is the
 * most distinct words that fall in one bank: the passes (wavefronts) the
 * instruction needs. */
static unsigned bank_degree(uint32_t *w, size_t n)
{
	/* insertion sort: an instruction touches a few hundred words at most */
	for (size_t i = 1; i < n; i++) {
		uint32_t v = w[i];
		size_t j = i;
		for (; j > 0 && w[j - 1] > v; j--)
			w[j] = w[j - 1];
		w[j] = v;
	}
	unsigned count[BANKS] = {0}, degree = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && w[i] == w[i - 1])
			continue;
		unsigned c = ++count[w[i] % BANKS];
		if (c > degree)
			degree = c;
	}
	return degree;
}

static void add_shared(struct coal *k, uint64_t a, unsigned size)
{
	uint64_t end = a + size - 1;
	for (uint64_t wd = a / BANK_WORD; wd <= end / BANK_WORD; wd++) {
		if (k->nwords == k->wcap) {
			k->wcap = k->wcap ? 2 * k->wcap : 256;
			k->words = gc_xrealloc(k->words, k->wcap * sizeof *k->words);
		}
		k->words[k->nwords++] = (uint32_t)wd;
	}
	k->has_shared = 1;
}

/* ---- coalescing --------------------------------------------------------- */

/* The lane group of an access under the Fermi rule (CUDA guide G.4.2,
 * compute capability 2.x): 8-byte accesses go per half warp, 16-byte ones
 * per quarter warp, smaller ones per warp. */
static uint32_t fermi_group(unsigned size, unsigned lane)
{
	if (size > 8)
		return lane / 8u;
	if (size > 4)
		return lane / 16u;
	return 0;
}

static struct part *find_part(struct coal *k, uint64_t line, uint32_t group, uint8_t space)
{
	if (k->np) {
		struct part *p = &k->p[k->last];
		if (p->line == line && p->group == group && p->space == space)
			return p;
		for (size_t i = 0; i < k->np; i++) {
			p = &k->p[i];
			if (p->line == line && p->group == group && p->space == space) {
				k->last = i;
				return p;
			}
		}
	}
	if (k->np == k->pcap) {
		k->pcap = k->pcap ? 2 * k->pcap : 64;
		k->p = gc_xrealloc(k->p, k->pcap * sizeof *k->p);
	}
	struct part *p = &k->p[k->np];
	k->last = k->np++;
	p->line = line;
	p->group = group;
	p->space = space;
	memset(p->bits, 0, sizeof p->bits);
	return p;
}

static void set_bytes(uint64_t *bits, unsigned off, unsigned n)
{
	if ((off & 63) + n <= 64) { /* the common case: within one word */
		bits[off / 64] |= ~UINT64_C(0) >> (64 - n) << (off & 63);
		return;
	}
	while (n) {
		unsigned wi = off / 64, bo = off % 64, m = 64 - bo < n ? 64 - bo : n;
		uint64_t v = m == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << m) - 1) << bo;
		bits[wi] |= v;
		off += m;
		n -= m;
	}
}

static void add_cached(struct coal *k, uint64_t a, unsigned size, unsigned lane,
		       uint8_t space)
{
	uint32_t group = k->arch == ARCH_FERMI ? fermi_group(size, lane) : 0;
	if (((a + size - 1) & k->lmask) != (a & k->lmask))
		k->s.straddling++;
	while (size) {
		uint64_t line = a & k->lmask;
		unsigned off = (unsigned)(a - line);
		unsigned n = k->line - off < size ? k->line - off : size;
		set_bytes(find_part(k, line, group, space)->bits, off, n);
		a += n;
		size -= n;
	}
	k->has_cached = 1;
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

static uint8_t sector_mask(const struct coal *k, const uint64_t *bits)
{
	uint8_t m = 0;
	unsigned ns = k->line / k->sector;
	for (unsigned i = 0; i < ns; i++) {
		unsigned lo = i * k->sector, hi = lo + k->sector; /* bytes [lo, hi) */
		int any = 0;
		for (unsigned b = lo; b < hi && !any; b += 64) {
			unsigned wi = b / 64, span = hi - b < 64 ? hi - b : 64;
			uint64_t v = bits[wi] >> (b % 64);
			if (span < 64)
				v &= (UINT64_C(1) << span) - 1;
			any = v != 0;
		}
		m |= (uint8_t)(any << i);
	}
	return m;
}

static void write_rec(struct coal *k, const gc_rec *q)
{
	if (k->w && gc_write(k->w, q) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(k->w));
}

/* The instruction is complete: its requests go out, its shared-memory
 * lanes are counted. */
static void flush(struct coal *k)
{
	if (!k->open)
		return;
	k->open = 0;
	k->s.instructions++;
	if (k->has_shared) {
		unsigned d = bank_degree(k->words, k->nwords);
		k->s.sh_insts++;
		k->s.sh_wavefronts += d;
		k->s.sh_conflicted += d > 1;
		if (d > k->s.sh_max_degree)
			k->s.sh_max_degree = d;
		k->nwords = 0;
		k->has_shared = 0;
	}
	if (!k->has_cached)
		return;
	k->has_cached = 0;
	gc_rec q = k->first;
	q.lane = 0;
	q.outcome = 0;
	if (q.op == GC_ATOMIC)
		q.flags |= GC_F_BYPASS_L1;
	for (size_t i = 0; i < k->np; i++) {
		const struct part *p = &k->p[i];
		unsigned bytes = 0;
		for (unsigned wi = 0; wi < k->line / 64 + (k->line < 64); wi++)
			bytes += popcount64(p->bits[wi]);
		q.addr = p->line;
		q.space = p->space;
		q.size = (uint16_t)bytes;
		q.mask = sector_mask(k, p->bits);
		write_rec(k, &q);
		k->s.requests++;
		k->s.bytes += bytes;
		k->s.sectors += popcount64(q.mask);
		k->s.space_requests[p->space]++;
		k->s.atomics += q.op == GC_ATOMIC;
	}
	k->s.req_hist[k->np > 32 ? 33 : k->np]++;
	k->np = 0;
	k->last = 0;
}

/* A lane of the open instruction. */
static inline void add_lane(struct coal *k, unsigned space, unsigned lane, unsigned size,
			    uint64_t addr)
{
	k->s.accesses++;
	k->s.space_accesses[space]++;
	if (space == GC_SHARED) {
		add_shared(k, addr, size);
		return;
	}
	/* add_cached's common case inline: the bytes in one word of the
	 * line of the part the last lane used */
	uint64_t line = addr & k->lmask;
	unsigned off = (unsigned)(addr - line);
	if (k->np && (off & 63) + size <= 64 && off + size <= k->line) {
		struct part *p = &k->p[k->last];
		uint32_t group = k->arch == ARCH_FERMI ? fermi_group(size, lane) : 0;
		if (p->line == line && p->group == group && p->space == space) {
			p->bits[off / 64] |= ~UINT64_C(0) >> (64 - size) << (off & 63);
			return;
		}
	}
	add_cached(k, addr, size, lane, (uint8_t)space);
}

static void add_access(struct coal *k, const gc_rec *r)
{
	/* A request holds a 48-bit line address: an access that reaches 2^48
	 * has no request (gc-import refuses these; another writer may not). */
	if (r->space != GC_SHARED && r->addr > GC_ADDR48_MAX - (r->size - 1u))
		gc_die_record_back(k->r, k->w, k->back,
				   "block %u warp %u seq %u lane %u: address 0x%llx "
				   "(%u bytes) reaches 2^48 or beyond: no request line can hold it",
				   r->block, r->warp, r->seq, r->lane, (unsigned long long)r->addr,
				   r->size);
	if (!k->open || r->seq != k->first.seq || r->warp != k->first.warp ||
	    r->block != k->first.block) {
		flush(k);
		k->open = 1;
		k->first = *r;
		k->key_ow = r->op | (uint64_t)r->warp << 48;
		k->key_bp = r->block | (uint64_t)r->pc << 32;
		k->key_seq = r->seq;
	} else if (r->pc != k->first.pc || r->op != k->first.op) {
		gc_die_record_back(k->r, k->w, k->back,
				   "block %u warp %u seq %u: %s at pc 0x%x, but the instruction is "
				   "a %s at pc 0x%x", r->block, r->warp, r->seq, gc_op_name(r->op),
				   r->pc, gc_op_name(k->first.op), k->first.pc);
	} else if (r->compute != k->first.compute) {
		/* The instruction's requests take one field: its lanes agree. */
		gc_die_record_back(k->r, k->w, k->back,
				   "block %u warp %u seq %u lane %u: field compute: 0x%llx, but the "
				   "instruction's lane %u has 0x%llx", r->block, r->warp, r->seq,
				   r->lane, (unsigned long long)r->compute, k->first.lane,
				   (unsigned long long)k->first.compute);
	}
	add_lane(k, r->space, r->lane, r->size, r->addr);
}

/*
 * n records as gc_read_raw gives them, rs bytes apart, time base hi.  A
 * lane of the open instruction (its op, warp, block, pc, seq and compute
 * field in place, its address within 48 bits) is added from its bytes;
 * any other record is decoded and goes through add_access, which starts
 * the next instruction or says what is wrong.
 */
static void add_raw(struct coal *k, const unsigned char *p, size_t n, size_t rs, uint64_t hi)
{
	const unsigned char *end = p + n * rs;
	while (p < end) {
		/* the open instruction's bytes, in registers */
		const uint64_t ow = k->key_ow, bp = k->key_bp, compute = k->first.compute;
		const uint64_t cmask = k->cmask;
		const uint32_t seq = k->key_seq;
		const unsigned coff = k->coff;
		if (k->open) /* add_lane leaves it open */
			for (; p < end; p += rs) {
				uint64_t w0 = gc_get64(p), a = gc_get64(p + 24);
				unsigned space = p[1] & 15u, size = p[3];
				if ((w0 & UINT64_C(0xffff0000000000ff)) != ow || gc_get64(p + 8) != bp ||
				    gc_get32(p + 16) != seq || (gc_get64(p + coff) & cmask) != compute ||
				    (space != GC_SHARED && a > GC_ADDR48_MAX - (size - 1u)))
					break;
				add_lane(k, space, p[2], size, a);
			}
		if (p == end)
			break;
		gc_rec rec;
		gc_reader_decode(k->r, p, hi, &rec);
		k->back = (uint64_t)(end - p) / rs - 1;
		add_access(k, &rec);
		k->back = 0;
		p += rs;
	}
}

/* ---- summary ------------------------------------------------------------ */

static void write_stats(const struct coal *k, FILE *f)
{
	const struct stats *s = &k->s;
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-coalesce");
	gc_json_str(&j, "input", gc_reader_name(k->r));
	gc_json_str(&j, "gpu", k->gpu.name);
	gc_json_obj(&j, "config");
	gc_json_str(&j, "arch", arch_names[k->arch]);
	gc_json_u64(&j, "line", k->line);
	gc_json_u64(&j, "sector", k->sector);
	gc_json_close(&j);
	gc_json_u64(&j, "accesses", s->accesses);
	gc_json_u64(&j, "instructions", s->instructions);
	gc_json_u64(&j, "requests", s->requests);
	gc_json_u64(&j, "sectors", s->sectors);
	gc_json_u64(&j, "bytes", s->bytes);
	gc_json_u64(&j, "straddling", s->straddling);
	gc_json_u64(&j, "atomic_requests", s->atomics);
	gc_json_obj(&j, "by_space");
	for (int i = 0; i < GC_NSPACES; i++) {
		gc_json_obj(&j, gc_space_name(i));
		gc_json_u64(&j, "accesses", s->space_accesses[i]);
		gc_json_u64(&j, "requests", s->space_requests[i]);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_obj(&j, "shared");
	gc_json_u64(&j, "accesses", s->space_accesses[GC_SHARED]);
	gc_json_u64(&j, "instructions", s->sh_insts);
	gc_json_u64(&j, "wavefronts", s->sh_wavefronts);
	gc_json_u64(&j, "conflicts", s->sh_wavefronts - s->sh_insts);
	gc_json_u64(&j, "conflicted_instructions", s->sh_conflicted);
	gc_json_u64(&j, "max_degree", s->sh_max_degree);
	gc_json_close(&j);
	gc_json_arr(&j, "requests_per_instruction");
	for (int i = 1; i < 34; i++)
		gc_json_u64(&j, NULL, s->req_hist[i]);
	gc_json_close(&j);
	gc_json_end(&j);
}

static void report(FILE *f, const void *ctx)
{
	const struct coal *k = ctx;
	const struct stats *s = &k->s;
	fprintf(f, "%s: %llu accesses, %llu warp instructions -> %llu requests, "
		"%llu sectors, %llu bytes (%s rule, %u-byte lines, %u-byte sectors)\n",
		gc_progname, (unsigned long long)s->accesses,
		(unsigned long long)s->instructions, (unsigned long long)s->requests,
		(unsigned long long)s->sectors, (unsigned long long)s->bytes,
		arch_names[k->arch], k->line, k->sector);
	fprintf(f, "%s: %llu accesses straddle a line; %llu atomic requests\n", gc_progname,
		(unsigned long long)s->straddling, (unsigned long long)s->atomics);
	fprintf(f, "%s: shared memory: %llu accesses in %llu instructions, %llu "
		"wavefronts (%llu bank conflicts, %llu instructions conflicted, at most %llu-way)\n",
		gc_progname, (unsigned long long)s->space_accesses[GC_SHARED],
		(unsigned long long)s->sh_insts, (unsigned long long)s->sh_wavefronts,
		(unsigned long long)(s->sh_wavefronts - s->sh_insts),
		(unsigned long long)s->sh_conflicted, (unsigned long long)s->sh_max_degree);
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct coal k;
	gc_header h;
	gc_rec rec;

	gc_prog_init("gc-coalesce", argc, argv);
	parse_cmdline(argc, argv, &cl);
	memset(&k, 0, sizeof k);
	k.cl = &cl;
	k.r = gc_open_stream(cl.input);
	gc_require_kind(k.r, GC_KIND_ACCESS);
	configure(&k);
	set_header(&k, &h);
	k.w = gc_open_output(&cl.c, &h);

	size_t rs = gc_reader_header(k.r)->record_size;
	if (gc_reader_header(k.r)->optional & GC_OPT_COMPUTE) {
		k.coff = 40;
		k.cmask = ~UINT64_C(0);
	}
	for (;;) {
		size_t n;
		uint64_t hi;
		const unsigned char *p = gc_read_raw(k.r, SIZE_MAX, &n, &hi);
		if (n) {
			add_raw(&k, p, n, rs, hi);
			if (cl.c.progress)
				gc_progress_reader_block(1, k.r);
			continue;
		}
		int ev = gc_read(k.r, &rec);
		if (ev == GC_DATA) {
			add_access(&k, &rec);
			if (cl.c.progress)
				gc_progress_reader(1, k.r);
			continue;
		}
		flush(&k);
		if (ev == GC_KBEGIN) {
			if (k.w && gc_write_kbegin(k.w, gc_reader_kernel(k.r)) < 0)
				gc_die(GC_EXIT_DATA, "%s", gc_writer_error(k.w));
		} else if (ev == GC_KEND) {
			if (k.w && (gc_write_opcodes(k.w, gc_reader_opcodes(k.r)) < 0 ||
				    gc_write_kend(k.w, rec.kernel) < 0))
				gc_die(GC_EXIT_DATA, "%s", gc_writer_error(k.w));
		} else if (ev == GC_EOF) {
			break;
		} else {
			gc_writer_free(k.w);
			gc_progress_end(cl.c.progress);
			gc_die(GC_EXIT_DATA, "%s", gc_reader_error(k.r));
		}
		if (cl.c.progress)
			gc_progress_reader(1, k.r);
	}
	gc_progress_end(cl.c.progress);
	gc_close_output(k.w);
	gc_write_report(&cl.c, report, &k);
	if (cl.c.stats) {
		FILE *f = gc_open_text(cl.c.stats);
		write_stats(&k, f);
		gc_close_text(f, cl.c.stats);
	}
	gc_header_free(&h);
	gc_reader_close(k.r);
	free(k.p);
	free(k.words);
	return 0;
}
