/*
 * nvbit.c - the output of NVBit's mem_trace sample tool (trace-formats
 * §2.1), in both line layouts:
 *
 *   MEMTRACE: CTX 0x.. - grid_launch_id N - CTA x,y,z - warp W - OPCODE - 0x.. x32
 *   MEMTRACE: CTX 0x.. - LAUNCH - Kernel pc 0x.. - Kernel name NAME - grid launch id N
 *             - grid size X,Y,Z - block size X,Y,Z - nregs R - shmem S - cuda stream id I
 *   CTA x,y,z - warp W - OPCODE - 0x.. x32                    (older samples)
 *   Kernel NAME - grid size X,Y,Z - block size ... - cuda stream id I
 *
 * One access line is one warp-level memory access with 32 lane addresses,
 * 0 for a lane that did not take part.  Every other line (the application's
 * own output, the tool's chatter) is skipped.
 *
 * A kernel is a run of access lines: one grid launch id in the new layout,
 * the lines after a "Kernel" line in the old one.  It is described by the
 * last LAUNCH line before its first access line; LAUNCH lines with no
 * access lines of their own become empty kernels.  A kernel is kept in
 * memory until it ends, because its begin record carries its number of
 * warp instructions: its accesses delta-coded (spool.h), about two bytes
 * an access of consecutive words, up to nine for scattered ones.
 *
 * The warp field is %warpid, the hardware warp slot in the SM.  A warp keeps
 * its slot for its lifetime and the warps of one CTA hold distinct slots, so
 * the slots seen in a CTA are numbered 0, 1, ... in order of first
 * appearance; that number is the record's warp.
 */
#include "base/hash.h"
#include "import/formats.h"
#include "import/spool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES 32
#define NO_ID (-1)

/* A LAUNCH line (or an old-layout "Kernel" line). */
struct launch {
	char *name;
	int64_t id; /* its grid launch id, NO_ID when not given */
	int has_grid, has_block, has_regs, has_shmem, has_stream;
	uint32_t grid[3];
	uint16_t block[3];
	uint16_t regs;
	uint32_t shmem;
	uint64_t stream;
};

struct warp {
	uint32_t seq;   /* sequence number of its next instruction */
	uint16_t slot;  /* hardware warp slot */
	uint8_t ldgsts; /* 1 after the first line of an LDGSTS pair */
};

struct cta {
	uint32_t x, y, z;
	uint32_t n, cap;
	struct warp *w;
};

struct nv {
	gc_import *im;
	gc_lines *in;
	/* The kernel being read. */
	int open;
	int64_t id; /* its grid launch id (NO_ID in the old layout) */
	int has_desc;
	struct launch desc;
	gc_spool acc;   /* its accesses, block: the CTA's index in cta[] */
	uint64_t ninst; /* its warp instructions */
	struct cta *cta;
	size_t ncta, ccta;
	uint32_t *linear; /* the CTAs' linear block ids (when written) */
	size_t clinear;
	gc_hmap ctamap; /* packed x,y,z -> index into cta[] */
	uint32_t max[3];
	uint32_t maxwarps;
	/* LAUNCH lines not yet matched with access lines. */
	struct launch *pend;
	size_t npend, cpend;
	gc_hset done;    /* grid launch ids of kernels already written */
	uint64_t groups; /* kernels read from this input (names of undescribed ones) */
};


/* ---- small parsers over a NUL-terminated line --------------------------- */

static int lit(const char **p, const char *s)
{
	size_t n = strlen(s);
	if (strncmp(*p, s, n) != 0)
		return 0;
	*p += n;
	return 1;
}


/* "a,b,c" with the given maxima. */
static int triple(const char **p, const uint64_t max[3], uint32_t v[3])
{
	for (int i = 0; i < 3; i++) {
		uint64_t x;
		if ((i && !lit(p, ",")) || !gc_parse_udec(p, max[i], &x))
			return 0;
		v[i] = (uint32_t)x;
	}
	return 1;
}

/* ---- writing a kernel --------------------------------------------------- */

static void launch_free(struct launch *l)
{
	free(l->name);
	l->name = NULL;
}

/* Write a kernel: described by d (or NULL), with the buffered accesses when
 * body is set, else empty. */
static void write_kernel(struct nv *s, const struct launch *d, int body)
{
	gc_import *im = s->im;
	gc_kernel k;
	char name[64];
	uint64_t grid[3] = {1, 1, 1};
	uint32_t block[3] = {1, 1, 1};

	/* Without launch geometry: the smallest grid holding the CTAs seen,
	 * and as many threads as the CTA with the most warps had warps. */
	if (body && s->ncta) {
		for (int i = 0; i < 3; i++)
			grid[i] = (uint64_t)s->max[i] + 1;
		block[0] = s->maxwarps * LANES;
		if (block[0] > UINT16_MAX)
			block[0] = UINT16_MAX / LANES * LANES;
	}
	if (d && d->has_grid)
		for (int i = 0; i < 3; i++)
			grid[i] = d->grid[i];
	if (d && d->has_block)
		for (int i = 0; i < 3; i++)
			block[i] = d->block[i];
	/* The CTA coordinates were checked against these bounds. */
	if (grid[0] > UINT32_MAX || grid[1] > UINT16_MAX || grid[2] > UINT16_MAX)
		im->fatal(im, "impossible grid (a bug in this tool)");
	if (d && d->name)
		gc_kernel_init(&k, gc_import_next_id(im), d->name);
	else {
		if (s->id != NO_ID)
			snprintf(name, sizeof name, "launch_%lld", (long long)s->id);
		else
			snprintf(name, sizeof name, "launch_%llu", (unsigned long long)s->groups);
		gc_kernel_init(&k, gc_import_next_id(im), name);
	}
	for (int i = 0; i < 3; i++) {
		k.grid[i] = (uint32_t)grid[i];
		k.block[i] = (uint16_t)block[i];
	}
	if (d && d->has_regs)
		k.regs = d->regs;
	if (d && d->has_shmem)
		k.shmem = d->shmem;
	uint64_t insts = body ? s->ninst : 0;
	gc_kernel_set_attr(&k, GC_A_MEM_INSTS, insts);
	if (d && d->has_stream)
		gc_kernel_set_attr(&k, GC_A_STREAM, d->stream);
	/* Linear block ids, x fastest. */
	s->linear = gc_import_grow(im, s->linear, &s->clinear, s->ncta, sizeof *s->linear);
	for (size_t i = 0; i < s->ncta; i++) {
		struct cta *c = &s->cta[i];
		uint64_t lin = c->x + grid[0] * (c->y + grid[1] * c->z);
		if (lin > UINT32_MAX) {
			char msg[300];
			snprintf(msg, sizeof msg, "%s: CTA %u,%u,%u of kernel %u: its linear "
				 "block id %llu does not fit 32 bits", gc_lines_name(s->in),
				 c->x, c->y, c->z, k.id, (unsigned long long)lin);
			im->fatal(im, msg);
		}
		s->linear[i] = (uint32_t)lin;
	}
	gc_import_kbegin(im, &k);
	if (body) {
		gc_rec r;
		memset(&r, 0, sizeof r);
		r.kernel = k.id;
		gc_spool_emit(im, &s->acc, &r, s->linear);
	}
	gc_import_kend(im);
}

/* Write the kernel being read, if any, and forget it. */
static void close_kernel(struct nv *s)
{
	if (!s->open)
		return;
	write_kernel(s, s->has_desc ? &s->desc : NULL, 1);
	if (s->id != NO_ID && gc_hset_add(&s->done, (uint64_t)s->id) < 0)
		s->im->fatal(s->im, "out of memory");
	for (size_t i = 0; i < s->ncta; i++)
		free(s->cta[i].w);
	s->ncta = 0;
	s->ninst = 0;
	gc_spool_clear(&s->acc);
	gc_hmap_clear(&s->ctamap);
	memset(s->max, 0, sizeof s->max);
	s->maxwarps = 0;
	launch_free(&s->desc);
	s->has_desc = 0;
	s->open = 0;
	s->groups++;
}

/* Write the LAUNCH lines still waiting as empty kernels, but the last
 * `keep` of them. */
static void flush_pending(struct nv *s, size_t keep)
{
	size_t n = s->npend > keep ? s->npend - keep : 0;
	for (size_t i = 0; i < n; i++) {
		write_kernel(s, &s->pend[i], 0);
		launch_free(&s->pend[i]);
	}
	if (n && n < s->npend)
		memmove(s->pend, s->pend + n, (s->npend - n) * sizeof *s->pend);
	s->npend -= n;
}

/* Start the kernel of grid launch `id` (NO_ID: old layout): -1 after
 * reporting a bad line. */
static int open_kernel(struct nv *s, int64_t id)
{
	if (id != NO_ID && gc_hset_has(&s->done, (uint64_t)id)) {
		gc_import_bad(s->im, s->in, "grid launch %lld resumes after another launch's "
			      "lines (interleaved launches are not supported)", (long long)id);
		return -1;
	}
	if (s->npend) {
		const struct launch *l = &s->pend[s->npend - 1];
		/* 1.7 prints the launch's own id, 1.5.x the next one. */
		if (id != NO_ID && l->id != NO_ID && l->id != id && l->id != id + 1) {
			gc_import_bad(s->im, s->in, "access lines of grid launch %lld follow the "
				      "LAUNCH line of grid launch %lld", (long long)id,
				      (long long)l->id);
			return -1;
		}
		flush_pending(s, 1);
		s->desc = s->pend[0];
		s->has_desc = 1;
		s->npend = 0;
	}
	s->open = 1;
	s->id = id;
	return 0;
}

/* ---- LAUNCH lines ------------------------------------------------------- */

enum { K_PC, K_NAME, K_ID, K_KID, K_HASH, K_GRID, K_BLOCK, K_REGS, K_SHMEM, K_STREAM };
static const char *const keys[] = {
	"Kernel pc ", "Kernel name ", "grid launch id ", "kernel launch id ", "kernel hash ",
	"grid size ", "block size ", "nregs ", "shmem ", "cuda stream id ", NULL,
};

static int key_at(const char *p)
{
	for (int i = 0; keys[i]; i++)
		if (strncmp(p, keys[i], strlen(keys[i])) == 0)
			return i;
	return -1;
}

/* The " - " that starts the next known field after p, or the line's end.
 * A demangled kernel name may hold " - " too; only a known keyword after
 * it ends the name. */
static char *field_end(char *p)
{
	for (char *q = strstr(p, " - "); q; q = strstr(q + 1, " - "))
		if (key_at(q + 3) >= 0)
			return q;
	return p + strlen(p);
}

/* Fields "KEY value - KEY value ..." from p; `first` names the key of the
 * first field when the line leaves it out (old layout: "Kernel NAME"). */
static void parse_launch(struct nv *s, char *p, int first)
{
	static const uint64_t gmax[3] = {UINT32_MAX, UINT16_MAX, UINT16_MAX};
	static const uint64_t bmax[3] = {UINT16_MAX, UINT16_MAX, UINT16_MAX};
	struct launch l;
	memset(&l, 0, sizeof l);
	l.id = NO_ID;
	for (;;) {
		int key = first;
		if (key < 0) {
			key = key_at(p);
			if (key < 0) {
				const char *e = strstr(p, " - ");
				int n = e ? (int)(e - p) : (int)strlen(p);
				gc_import_bad(s->im, s->in, "malformed LAUNCH line: unknown field '%.*s'",
					      n < 60 ? n : 60, p);
				return;
			}
			p += strlen(keys[key]);
		}
		first = -1;
		char *e = field_end(p);
		int more = *e != 0;
		*e = 0;
		const char *v = p;
		uint64_t x = 0;
		uint32_t t[3];
		int ok = 1;
		switch (key) {
		case K_NAME:
			if (l.name || !*v) {
				ok = 0;
				break;
			}
			l.name = strdup(v);
			if (!l.name)
				s->im->fatal(s->im, "out of memory");
			break;
		case K_ID:
		case K_KID:
			ok = gc_parse_udec(&v, INT64_MAX, &x) && !*v;
			l.id = (int64_t)x;
			break;
		case K_PC:
		case K_HASH:
			break;
		case K_GRID:
			ok = triple(&v, gmax, t) && !*v && t[0] && t[1] && t[2];
			for (int i = 0; i < 3; i++)
				l.grid[i] = t[i];
			l.has_grid = 1;
			break;
		case K_BLOCK:
			ok = triple(&v, bmax, t) && !*v && t[0] && t[1] && t[2];
			for (int i = 0; i < 3; i++)
				l.block[i] = (uint16_t)t[i];
			l.has_block = 1;
			break;
		case K_REGS:
			ok = gc_parse_udec(&v, UINT16_MAX, &x) && !*v;
			l.regs = (uint16_t)x;
			l.has_regs = 1;
			break;
		case K_SHMEM:
			ok = gc_parse_udec(&v, UINT32_MAX, &x) && !*v;
			l.shmem = (uint32_t)x;
			l.has_shmem = 1;
			break;
		case K_STREAM:
			/* %ld of a pointer: may print negative. */
			if (*v == '-') {
				v++;
				ok = gc_parse_udec(&v, (uint64_t)INT64_MAX + 1, &x) && !*v;
				x = (uint64_t)0 - x;
			} else {
				ok = gc_parse_udec(&v, UINT64_MAX, &x) && !*v;
			}
			l.stream = x;
			l.has_stream = 1;
			break;
		}
		if (!ok) {
			gc_import_bad(s->im, s->in, "malformed LAUNCH line: bad %s'%s'", keys[key], p);
			launch_free(&l);
			return;
		}
		if (!more)
			break;
		p = e + 3;
	}
	if (!l.name) {
		gc_import_bad(s->im, s->in, "malformed LAUNCH line: no 'Kernel name' field");
		return;
	}
	/* A kernel without launch ids ends at the next launch; one with ids
	 * may still receive late lines, and ends when another id arrives. */
	if (s->open && s->id == NO_ID)
		close_kernel(s);
	s->pend = gc_import_grow(s->im, s->pend, &s->cpend, s->npend + 1, sizeof *s->pend);
	s->pend[s->npend++] = l;
}

/* ---- access lines ------------------------------------------------------- */

static struct cta *find_cta(struct nv *s, const uint32_t xyz[3])
{
	uint64_t key = xyz[0] | (uint64_t)xyz[1] << 32 | (uint64_t)xyz[2] << 48;
	int added;
	uint64_t *v = gc_hmap_put(&s->ctamap, key, &added);
	if (!v)
		s->im->fatal(s->im, "out of memory");
	if (added) {
		s->cta = gc_import_grow(s->im, s->cta, &s->ccta, s->ncta + 1, sizeof *s->cta);
		struct cta *c = &s->cta[s->ncta];
		memset(c, 0, sizeof *c);
		c->x = xyz[0];
		c->y = xyz[1];
		c->z = xyz[2];
		*v = s->ncta++;
		for (int i = 0; i < 3; i++)
			if (xyz[i] > s->max[i])
				s->max[i] = xyz[i];
	}
	return &s->cta[*v];
}

static uint16_t find_warp(struct nv *s, struct cta *c, uint16_t slot)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->w[i].slot == slot)
			return (uint16_t)i;
	size_t cap = c->cap;
	c->w = gc_import_grow(s->im, c->w, &cap, (size_t)c->n + 1, sizeof *c->w);
	c->cap = (uint32_t)cap;
	memset(&c->w[c->n], 0, sizeof *c->w);
	c->w[c->n].slot = slot;
	if (c->n + 1 > s->maxwarps)
		s->maxwarps = c->n + 1;
	return (uint16_t)c->n++;
}

/* p: at "grid_launch_id " (new layout) or "CTA " (old layout). */
static void parse_access(struct nv *s, const char *p)
{
	static const uint64_t cmax[3] = {UINT32_MAX - 1, UINT16_MAX - 1, UINT16_MAX - 1};
	gc_import *im = s->im;
	int64_t id = NO_ID;
	uint64_t x;
	uint32_t xyz[3];
	char opc[64];
	uint64_t addr[LANES];

	if (lit(&p, "grid_launch_id ")) {
		if (!gc_parse_udec(&p, INT64_MAX, &x)) {
			gc_import_bad(im, s->in, "malformed access line: bad grid_launch_id");
			return;
		}
		id = (int64_t)x;
		if (!lit(&p, " - CTA ")) {
			gc_import_bad(im, s->in, "malformed access line: expected ' - CTA '");
			return;
		}
	} else if (!lit(&p, "CTA ")) {
		gc_import_bad(im, s->in, "malformed access line: expected 'CTA '");
		return;
	}
	if (!triple(&p, cmax, xyz)) {
		gc_import_bad(im, s->in, "malformed access line: bad CTA coordinates");
		return;
	}
	if (!lit(&p, " - warp ")) {
		gc_import_bad(im, s->in, "malformed access line: expected ' - warp '");
		return;
	}
	if (!gc_parse_udec(&p, UINT16_MAX, &x)) {
		gc_import_bad(im, s->in, "malformed access line: bad warp slot");
		return;
	}
	uint16_t slot = (uint16_t)x;
	if (!lit(&p, " - ")) {
		gc_import_bad(im, s->in, "malformed access line: expected ' - ' after the warp");
		return;
	}
	size_t n = strcspn(p, " ");
	if (n == 0 || n >= sizeof opc) {
		gc_import_bad(im, s->in, "malformed access line: bad opcode");
		return;
	}
	memcpy(opc, p, n);
	opc[n] = 0;
	p += n;
	if (!lit(&p, " - ")) {
		gc_import_bad(im, s->in, "malformed access line: expected ' - ' after the opcode");
		return;
	}
	int nlanes = 0;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *e;
		if (nlanes == LANES) {
			gc_import_bad(im, s->in, "more than %d lane addresses", LANES);
			return;
		}
		if (!gc_parse_hex(p, &e, &addr[nlanes]) || (*e && *e != ' ')) {
			gc_import_bad(im, s->in, "bad lane address '%.*s'", (int)strcspn(p, " "), p);
			return;
		}
		nlanes++;
		p = e;
	}
	if (nlanes != LANES) {
		gc_import_bad(im, s->in, "expected %d lane addresses, found %d", LANES, nlanes);
		return;
	}
	uint8_t op, space, flags;
	if (!gc_sass_memop(opc, &op, &space, &flags)) {
		gc_import_bad(im, s->in, "'%s' is not a memory instruction", opc);
		return;
	}
	unsigned width = gc_sass_width(opc);
	if (width < 1 || width > 255) {
		gc_import_bad(im, s->in, "access width %u from '%s' is out of range", width, opc);
		return;
	}

	/* A lane address that is not junk must fit below 2^48. */
	for (int l = 0; l < LANES; l++)
		if (addr[l] && gc_import_junk_match(im, addr[l]) < 0 &&
		    gc_import_addr48(im, s->in, l, addr[l], width) < 0)
			return;

	/* The line is well formed: now it may change the state. */
	if (!s->open || id != s->id) {
		close_kernel(s);
		if (open_kernel(s, id) < 0)
			return;
	}
	if (s->has_desc && s->desc.has_grid &&
	    (xyz[0] >= s->desc.grid[0] || xyz[1] >= s->desc.grid[1] || xyz[2] >= s->desc.grid[2])) {
		gc_import_bad(im, s->in, "CTA %u,%u,%u is outside the grid %u,%u,%u of its LAUNCH line",
			      xyz[0], xyz[1], xyz[2], s->desc.grid[0], s->desc.grid[1],
			      s->desc.grid[2]);
		return;
	}
	struct cta *c = find_cta(s, xyz);
	uint16_t warp = find_warp(s, c, slot);
	struct warp *w = &c->w[warp];
	/* LDGSTS has two memory operands and so two lines per execution: the
	 * shared-memory destination first, then the global source. */
	if (strncmp(opc, "LDGSTS", 6) == 0) {
		if (!w->ldgsts)
			op = GC_STORE, space = GC_SHARED, flags = 0;
		w->ldgsts ^= 1;
	}
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = op;
	r.space = space;
	r.flags = flags;
	r.size = (uint16_t)width;
	r.block = (uint32_t)(c - s->cta);
	r.warp = warp;
	r.seq = w->seq;
	int any = 0;
	for (int l = 0; l < LANES; l++) {
		if (addr[l] == 0)
			continue; /* inactive */
		/* Shared-memory offsets are small by nature: never junk. */
		if (space != GC_SHARED && gc_import_junk(im, addr[l]))
			continue;
		r.lane = (uint8_t)l;
		r.addr = addr[l];
		gc_spool_put(im, &s->acc, &r);
		any = 1;
	}
	if (!any)
		return; /* no active lane, no instruction */
	w->seq++;
	s->ninst++;
}

/* ---- the format --------------------------------------------------------- */

/* Bounded search in a line that need not be NUL-terminated. */
static const char *find(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++)
		if (s[i] == needle[0] && memcmp(s + i, needle, m) == 0)
			return s + i;
	return NULL;
}

int gc_nvbit_probe(const char *head, size_t len, const char *path)
{
	int score = 0;
	(void)path;
	for (size_t i = 0; i < len;) {
		const char *l = head + i, *nl = memchr(l, '\n', len - i);
		size_t n = nl ? (size_t)(nl - l) : len - i;
		if (find(l, n, "MEMTRACE: CTX 0x"))
			return 95;
		if (n > 5 && memcmp(l, "CTA ", 4) == 0 && l[4] >= '0' && l[4] <= '9' &&
		    find(l, n, " - warp "))
			score = 85;
		else if (n > 7 && memcmp(l, "Kernel ", 7) == 0 && find(l, n, " - grid size ") &&
			 score < 80)
			score = 80;
		i += n + 1;
	}
	return score;
}

int gc_nvbit_import(gc_import *im, gc_lines *in)
{
	struct nv s;
	char *line;
	memset(&s, 0, sizeof s);
	s.im = im;
	s.in = in;
	s.id = NO_ID;
	gc_spool_init(&s.acc);
	if (!gc_header_get(&im->h, "warp_size"))
		gc_header_set(&im->h, "warp_size", "32");
	while (gc_lines_next(in, &line) >= 0) {
		char *p = line;
		if (strncmp(p, "MEMTRACE: ", 10) != 0) {
			if (strncmp(p, "CTA ", 4) == 0 && p[4] >= '0' && p[4] <= '9') {
				parse_access(&s, p);
				continue;
			}
			if (strncmp(p, "Kernel ", 7) == 0 && strstr(p, " - grid size ")) {
				parse_launch(&s, p + 7, K_NAME);
				continue;
			}
			/* Application output, perhaps with a trace line after a
			 * missing newline. */
			p = strstr(p, "MEMTRACE: CTX ");
			if (!p)
				continue;
		}
		const char *q = p + 10;
		uint64_t ctx;
		if (!lit(&q, "CTX "))
			continue; /* STARTING CONTEXT and other tool chatter */
		if (!gc_parse_hex(q, &q, &ctx) || !lit(&q, " - ")) {
			gc_import_bad(im, in, "malformed MEMTRACE line: bad CTX field");
			continue;
		}
		if (strncmp(q, "grid_launch_id ", 15) == 0)
			parse_access(&s, q);
		else if (lit(&q, "LAUNCH - "))
			parse_launch(&s, (char *)q, -1);
	}
	if (!gc_lines_failed(in)) { /* else gc-import reports the read error */
		close_kernel(&s);
		flush_pending(&s, 0);
	}
	gc_spool_free(&s.acc);
	free(s.linear);
	free(s.cta);
	free(s.pend);
	gc_hmap_free(&s.ctamap);
	gc_hset_free(&s.done);
	return 0;
}
