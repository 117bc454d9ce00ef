/*
 * ppt.c - PPT-GPU memory traces (trace-formats §2.2): per-block files
 * memory_traces/kernel_<k>_block_<b>.mem and the launch geometry in
 * app_config.py (or app_config) beside memory_traces/.
 *
 * Two syntaxes of the block files, told apart by the first non-empty line:
 *
 *   =====                              NMSU-PEARL/PPT-GPU: a "=====" line
 *   LDG.E.64.SYS 0x7f.. 0x7f..         before each record, 0x addresses
 *
 *   LDG.E.64.SYS [W] [P A M] 7f.. 7f.. ppt-gpu-subcore: one record a line,
 *                                      no 0x; W (warp id, ENV_TRACING_LEVEL
 *                                      bit 4) and P A M (predicated-off
 *                                      count, active and predicate masks,
 *                                      bit 8) only with --ppt-level
 *
 * Only the non-zero lane addresses are written, in lane order, so a
 * record's lanes are numbered by position (0, 1, ...), or, when the masks
 * are there and the active mask has exactly as many lanes as there are
 * addresses, by the active mask (and lanes outside the predicate mask are
 * dropped as predicated off).  The subcore tracer keeps its streams open
 * and std::hex is sticky: W and P are decimal until the stream has printed
 * something in hex (a mask or an address), and hex from then on.
 *
 * Inputs: an app_config file imports the whole run (every kernel that has
 * an entry or block files, in kernel order, each with its blocks in block
 * order); a single .mem file is one block of one kernel, the block id taken
 * from its name, its geometry from --app-config when given.
 */
#include "import/formats.h"
#include "import/spool.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES 32
#define MAX_ADDRS 64 /* LDGSTS: two operands' addresses on one line */

/* Past the blanks at p (strspn(p, " \t") inline: it is called for every
 * address). */
static inline const char *blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}


/* One kernel_<k> entry of app_config. */
struct entry {
	uint32_t k;
	char *name;
	int has_regs, has_shmem, has_grid, has_block, has_stream;
	uint16_t regs;
	uint32_t shmem;
	uint32_t grid[3];
	uint16_t block[3];
	uint64_t stream;
};

struct config {
	struct entry *e;
	size_t n, cap;
};

/* A kernel being assembled from its block files. */
struct kern {
	gc_import *im;
	uint32_t k;
	int has_k;
	const struct entry *e;
	gc_spool acc;   /* its accesses until it is written (spool.h) */
	uint64_t ninst; /* its warp instructions */
	int any;
	uint32_t maxblock, maxwarps;
};



/* The last path component without a .gz or .xz suffix, into buf. */
static void base_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 3 && (strcmp(b + n - 3, ".gz") == 0 || strcmp(b + n - 3, ".xz") == 0))
		n -= 3;
	if (n >= len)
		n = len - 1;
	memcpy(buf, b, n);
	buf[n] = 0;
}

/* kernel_<k>_block_<b>.mem: 1; kernel_<k>_sm_<s>.mem: 2; else 0. */
static int parse_name(const char *path, uint32_t *k, uint32_t *b)
{
	char buf[256];
	uint64_t x, y;
	base_name(path, buf, sizeof buf);
	const char *p = buf;
	if (strncmp(p, "kernel_", 7) != 0)
		return 0;
	p += 7;
	if (!gc_parse_udec(&p, UINT32_MAX, &x))
		return 0;
	int kind = strncmp(p, "_block_", 7) == 0 ? 1 : strncmp(p, "_sm_", 4) == 0 ? 2 : 0;
	if (!kind)
		return 0;
	p += kind == 1 ? 7 : 4;
	if (!gc_parse_udec(&p, UINT32_MAX, &y) || strcmp(p, ".mem") != 0)
		return 0;
	*k = (uint32_t)x;
	*b = (uint32_t)y;
	return kind;
}

/* ---- app_config --------------------------------------------------------- */

enum { T_END, T_NAME, T_NUM, T_STR, T_PUNCT };

struct parser {
	gc_import *im;
	const char *file;
	const char *p;
	uint64_t line;
	int failed;
	/* The current token. */
	int type;
	const char *s;
	size_t n;
	int64_t num;
	uint64_t tline;
};

static void perr(struct parser *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Report the first error only: the rest of the file is not read. */
static void perr(struct parser *c, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	if (c->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->failed = 1;
	gc_import_bad_at(c->im, c->file, c->tline, "%s", msg);
}

static void next(struct parser *c)
{
	const char *p = c->p;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			if (*p++ == '\n')
				c->line++;
		if (*p != '#')
			break;
		while (*p && *p != '\n')
			p++;
	}
	c->tline = c->line;
	c->s = p;
	if (!*p) {
		c->type = T_END;
	} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_') {
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		       (*p >= '0' && *p <= '9'))
			p++;
		c->type = T_NAME;
	} else if ((*p >= '0' && *p <= '9') || *p == '-') {
		const char *q = p + (*p == '-');
		uint64_t x;
		if (!gc_parse_udec(&q, (uint64_t)INT64_MAX, &x) ||
		    (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '.') {
			c->type = T_END;
			perr(c, "bad number '%.*s'", (int)strcspn(p, " \t\r\n,:]})"), p);
			return;
		}
		c->num = *p == '-' ? -(int64_t)x : (int64_t)x;
		p = q;
		c->type = T_NUM;
	} else if (*p == '"' || *p == '\'') {
		char quote = *p++;
		c->s = p;
		while (*p && *p != quote && *p != '\n')
			p++;
		if (*p != quote) {
			c->type = T_END;
			perr(c, "unterminated string");
			return;
		}
		c->n = (size_t)(p - c->s);
		c->type = T_STR;
		c->p = p + 1;
		return;
	} else {
		p++;
		c->type = T_PUNCT;
	}
	c->n = (size_t)(p - c->s);
	c->p = p;
}

static int punct(const struct parser *c, char ch)
{
	return c->type == T_PUNCT && *c->s == ch;
}

/* What a value was, for the keys that matter. */
struct value {
	int kind; /* T_NUM: nums[0]; '[': a list of n numbers; T_STR; 0: other */
	int64_t nums[3];
	int n;
	const char *s;
	size_t len;
};

static void parse_value(struct parser *c, struct value *v, struct entry *e);

static void set_key(struct parser *c, struct entry *e, const char *key, size_t klen,
		    const struct value *v)
{
	static const int64_t gmax[3] = {UINT32_MAX, UINT16_MAX, UINT16_MAX};
	char k[40];
	if (klen >= sizeof k)
		return;
	memcpy(k, key, klen);
	k[klen] = 0;
	if (strcmp(k, "kernel_name") == 0) {
		if (v->kind != T_STR) {
			perr(c, "\"%s\" must be a string", k);
			return;
		}
		free(e->name);
		e->name = strndup(v->s, v->len);
		if (!e->name)
			c->im->fatal(c->im, "out of memory");
	} else if (strcmp(k, "num_registers") == 0) {
		if (v->kind != T_NUM || v->nums[0] < 0 || v->nums[0] > UINT16_MAX) {
			perr(c, "\"%s\" must be a number from 0 to 65535", k);
			return;
		}
		e->regs = (uint16_t)v->nums[0];
		e->has_regs = 1;
	} else if (strcmp(k, "shared_mem_bytes") == 0) {
		if (v->kind != T_NUM || v->nums[0] < 0 || v->nums[0] > UINT32_MAX) {
			perr(c, "\"%s\" must be a number from 0 to 4294967295", k);
			return;
		}
		e->shmem = (uint32_t)v->nums[0];
		e->has_shmem = 1;
	} else if (strcmp(k, "grid_size") == 0 || strcmp(k, "block_size") == 0) {
		int grid = k[0] == 'g';
		int n = v->kind == T_NUM ? 1 : v->kind == '[' ? v->n : 0;
		int64_t d[3] = {1, 1, 1};
		for (int i = 0; i < n; i++) {
			d[i] = v->nums[i];
			if (d[i] < 1 || d[i] > (grid ? gmax[i] : UINT16_MAX))
				n = 0;
		}
		if (n == 0) {
			perr(c, "\"%s\" must be a positive number or a list of up to 3", k);
			return;
		}
		for (int i = 0; i < 3; i++) {
			if (grid)
				e->grid[i] = (uint32_t)d[i];
			else
				e->block[i] = (uint16_t)d[i];
		}
		*(grid ? &e->has_grid : &e->has_block) = 1;
	} else if (strcmp(k, "cuda_stream_id") == 0) {
		if (v->kind != T_NUM) {
			perr(c, "\"%s\" must be a number", k);
			return;
		}
		e->stream = (uint64_t)v->nums[0];
		e->has_stream = 1;
	}
}

/* Containers close with `close`; a dictionary (e set: the kernel entry to
 * fill) has key: value pairs. */
static void parse_items(struct parser *c, char close, struct value *v, struct entry *e)
{
	int dict = close == '}';
	v->kind = dict ? 0 : '[';
	v->n = 0;
	next(c);
	while (!c->failed && !punct(c, close)) {
		const char *key = c->s;
		size_t klen = c->n;
		int ktype = c->type;
		struct value item;
		if (ktype == T_END) {
			perr(c, "unexpected end of file");
			return;
		}
		if (dict) {
			if (ktype != T_STR && ktype != T_NAME && ktype != T_NUM)
				{
				perr(c, "expected a dictionary key");
				return;
			}
			next(c);
			if (!punct(c, ':')) {
				perr(c, "expected ':' after a dictionary key");
				return;
			}
			next(c);
		}
		parse_value(c, &item, NULL);
		if (c->failed)
			return;
		if (dict && e && ktype == T_STR)
			set_key(c, e, key, klen, &item);
		if (!dict) {
			if (item.kind == T_NUM && v->kind == '[' && v->n < 3)
				v->nums[v->n++] = item.nums[0];
			else
				v->kind = 0;
		}
		if (c->failed)
			return;
		if (punct(c, ','))
			next(c);
		else if (!punct(c, close)) {
			perr(c, "expected ',' or '%c'", close);
			return;
		}
	}
	if (!c->failed)
		next(c);
}

static void parse_value(struct parser *c, struct value *v, struct entry *e)
{
	memset(v, 0, sizeof *v);
	switch (c->type) {
	case T_NUM:
		v->kind = T_NUM;
		v->nums[0] = c->num;
		next(c);
		return;
	case T_STR:
		v->kind = T_STR;
		v->s = c->s;
		v->len = c->n;
		next(c);
		return;
	case T_NAME: /* True, None, ... */
		next(c);
		return;
	case T_PUNCT:
		if (*c->s == '{' || *c->s == '[' || *c->s == '(') {
			parse_items(c, *c->s == '{' ? '}' : *c->s == '[' ? ']' : ')', v, e);
			return;
		}
		break;
	}
	if (c->type == T_END)
		perr(c, "unexpected end of file");
	else
		perr(c, "unexpected '%.*s'", (int)(c->n < 20 ? c->n : 20), c->s);
}

static void config_free(struct config *cf)
{
	for (size_t i = 0; i < cf->n; i++)
		free(cf->e[i].name);
	free(cf->e);
	memset(cf, 0, sizeof *cf);
}

/* Statements NAME = VALUE; kernel_<k> = {...} are the entries. */
static void config_parse(gc_import *im, gc_lines *in, struct config *cf)
{
	char *text = NULL, *line;
	size_t len = 0, cap = 0;
	long n;
	while ((n = gc_lines_next(in, &line)) >= 0) {
		text = gc_import_grow(im, text, &cap, len + (size_t)n + 2, 1);
		memcpy(text + len, line, (size_t)n);
		len += (size_t)n;
		text[len++] = '\n';
	}
	if (n == -2)
		im->fatal(im, gc_lines_error(in));
	text = gc_import_grow(im, text, &cap, len + 1, 1);
	text[len] = 0;
	if (strlen(text) != len)
		gc_import_bad(im, in, "NUL byte in the file");

	struct parser c;
	memset(&c, 0, sizeof c);
	c.im = im;
	c.file = gc_lines_name(in);
	c.p = text;
	c.line = 1;
	next(&c);
	while (!c.failed && c.type != T_END) {
		if (c.type != T_NAME) {
			perr(&c, "expected NAME = VALUE");
			break;
		}
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(c.n < 40 ? c.n : 40), c.s);
		next(&c);
		if (!punct(&c, '=')) {
			perr(&c, "expected '=' after '%s'", name);
			break;
		}
		next(&c);
		const char *p = name + 7;
		uint64_t k = 0;
		struct entry e;
		memset(&e, 0, sizeof e);
		struct value v;
		int is_kernel = strncmp(name, "kernel_", 7) == 0 && gc_parse_udec(&p, UINT32_MAX, &k) && !*p;
		if (is_kernel && !punct(&c, '{')) {
			perr(&c, "'%s' must be a dictionary", name);
			break;
		}
		parse_value(&c, &v, is_kernel ? &e : NULL);
		if (c.failed || !is_kernel) {
			free(e.name);
			continue;
		}
		e.k = (uint32_t)k;
		size_t i;
		for (i = 0; i < cf->n && cf->e[i].k != e.k; i++)
			;
		if (i < cf->n)
			free(cf->e[i].name); /* a later assignment wins */
		else
			cf->e = gc_import_grow(im, cf->e, &cf->cap, ++cf->n, sizeof *cf->e);
		cf->e[i] = e;
	}
	free(text);
}

static void config_load(gc_import *im, const char *path, struct config *cf)
{
	gc_import_will_read(im, path, 1);
	gc_lines *in = gc_lines_open(path);
	if (!in)
		im->fatal(im, "out of memory");
	if (gc_lines_failed(in))
		im->fatal(im, gc_lines_error(in));
	config_parse(im, in, cf);
	if (gc_lines_failed(in))
		im->fatal(im, gc_lines_error(in));
	gc_lines_close(in);
}

static const struct entry *config_find(const struct config *cf, uint32_t k)
{
	for (size_t i = 0; i < cf->n; i++)
		if (cf->e[i].k == k)
			return &cf->e[i];
	return NULL;
}

/* ---- block files -------------------------------------------------------- */

struct slot {
	uint16_t slot;
	uint32_t seq;
};

/* A warp id or predicated-off count: decimal until the stream went hex. */
static int field(const char **p, int hex, uint64_t max, uint64_t *v)
{
	const char *e;
	if (hex) {
		if (!gc_parse_hex(*p, &e, v) || *v > max)
			return 0;
		*p = e;
		return 1;
	}
	return gc_parse_udec(p, max, v);
}

static int end_of_token(const char *p)
{
	return *p == 0 || *p == ' ' || *p == '\t';
}

/* Read one block file (block `block` of kernel k) into k. */
/* One instruction line of a block file, as parsed. */
struct pline {
	char opc[64];
	uint8_t op, space, flags;
	unsigned width;
	uint64_t slot;          /* the warp id field (level 4), else 0 */
	uint64_t amask, pmask;  /* active and predicate masks (level 8) */
	int has_masks;
	int na;
	uint64_t addr[MAX_ADDRS];
};

/* The block's warps: hardware slots in order of first appearance. */
struct slots {
	struct slot *w;
	size_t n, cap;
};

/* The opcode at *p, its operation and width; *p moved past it.  -1 when
 * the line is bad (reported). */
static int parse_opcode(gc_import *im, gc_lines *in, const char **p, struct pline *l)
{
	size_t n = strcspn(*p, " \t");
	if (n >= sizeof l->opc) {
		gc_import_bad(im, in, "bad opcode '%.20s...'", *p);
		return -1;
	}
	memcpy(l->opc, *p, n);
	l->opc[n] = 0;
	*p += n;
	if (!gc_sass_memop(l->opc, &l->op, &l->space, &l->flags)) {
		gc_import_bad(im, in, "'%s' is not a memory instruction", l->opc);
		return -1;
	}
	l->width = gc_sass_width(l->opc);
	if (l->width < 1 || l->width > 255) {
		gc_import_bad(im, in, "access width %u from '%s' is out of range", l->width, l->opc);
		return -1;
	}
	return 0;
}

/* The fields that --ppt-level adds before the addresses of a one-line
 * record: a warp id (4), the predicated-off count and the two masks (8).
 * *hex: numbers are hex from here on (the masks are).  -1 when bad. */
static int parse_level_fields(gc_import *im, gc_lines *in, const char **pp, struct pline *l,
			      int *hex)
{
	const char *p = *pp;
	if (im->ppt_level & 4) {
		p = blanks(p);
		if (!field(&p, *hex, UINT16_MAX, &l->slot) || !end_of_token(p)) {
			gc_import_bad(im, in, "bad warp id '%.*s'", (int)strcspn(p, " \t"), p);
			return -1;
		}
	}
	if (im->ppt_level & 8) {
		uint64_t npred;
		p = blanks(p);
		if (!field(&p, *hex, LANES, &npred) || !end_of_token(p)) {
			gc_import_bad(im, in, "bad predicated-off thread count");
			return -1;
		}
		uint64_t *m[2] = {&l->amask, &l->pmask};
		for (int i = 0; i < 2; i++) {
			const char *e;
			p = blanks(p);
			if (!gc_parse_hex(p, &e, m[i]) || *m[i] > UINT32_MAX || !end_of_token(e)) {
				gc_import_bad(im, in, "bad %s mask", i == 0 ? "active" : "predicate");
				return -1;
			}
			p = e;
		}
		l->has_masks = 1;
		*hex = 1; /* the masks are printed in hex */
	}
	*pp = p;
	return 0;
}

/* The addresses to the end of the line.  -1 when bad. */
static int parse_addrs(gc_import *im, gc_lines *in, const char *p, struct pline *l)
{
	l->na = 0;
	for (;;) {
		const char *e;
		p = blanks(p);
		if (!*p)
			break;
		if (l->na == MAX_ADDRS) {
			gc_import_bad(im, in, "more than %d addresses", MAX_ADDRS);
			return -1;
		}
		if (!gc_parse_hex(p, &e, &l->addr[l->na]) || !end_of_token(e)) {
			gc_import_bad(im, in, "bad address '%.*s'", (int)strcspn(p, " \t"), p);
			return -1;
		}
		p = e;
		l->na++;
	}
	if (l->na > LANES && strncmp(l->opc, "LDGSTS", 6) != 0) {
		gc_import_bad(im, in, "%d addresses for one warp", l->na);
		return -1;
	}
	return 0;
}

/* The index of the warp of hardware slot `slot` (by_slot: the line names
 * its slot; else every line is the block's one warp), a new one at the
 * end when first seen. */
static size_t warp_index(struct kern *k, struct slots *ws, int by_slot, uint64_t slot)
{
	size_t wi = 0;
	if (by_slot) {
		while (wi < ws->n && ws->w[wi].slot != slot)
			wi++;
	}
	if (wi == ws->n) {
		ws->w = gc_import_grow(k->im, ws->w, &ws->cap, ws->n + 1, sizeof *ws->w);
		ws->w[ws->n].slot = (uint16_t)slot;
		ws->w[ws->n].seq = 0;
		ws->n++;
		if (ws->n > k->maxwarps)
			k->maxwarps = (uint32_t)ws->n;
	}
	return wi;
}

/* The line's active addresses and its instruction, to the kernel (none
 * when no lane is active). */
static void add_inst(struct kern *k, gc_lines *in, const struct pline *l, uint32_t block,
		     size_t wi, struct slot *w)
{
	gc_import *im = k->im;
	/* Which lanes. */
	uint8_t lanes[MAX_ADDRS];
	int na = l->na;
	int by_mask = l->has_masks && __builtin_popcountll(l->amask) == na;
	for (int i = 0, b = 0; i < na; i++) {
		if (by_mask) {
			while (!(l->amask >> b & 1))
				b++;
			lanes[i] = (uint8_t)b++;
		} else {
			lanes[i] = (uint8_t)(i % LANES);
		}
	}
	/* A lane address that is not junk must fit below 2^48 (--lenient:
	 * the line is skipped, its junk lanes not counted). */
	for (int i = 0; i < na; i++)
		if (!(by_mask && !(l->pmask >> lanes[i] & 1)) &&
		    gc_import_junk_match(im, l->addr[i]) < 0 &&
		    gc_import_addr48(im, in, lanes[i], l->addr[i], l->width) < 0)
			return;
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = l->op;
	r.space = l->space;
	r.flags = l->flags;
	r.size = (uint16_t)l->width;
	r.block = block;
	r.warp = (uint16_t)wi;
	r.seq = w->seq;
	int any = 0;
	for (int i = 0; i < na; i++) {
		if (by_mask && !(l->pmask >> lanes[i] & 1))
			continue; /* predicated off */
		if (gc_import_junk(im, l->addr[i]))
			continue;
		r.lane = lanes[i];
		r.addr = l->addr[i];
		gc_spool_put(im, &k->acc, &r);
		any = 1;
	}
	if (!any)
		return; /* no active lane, no instruction */
	w->seq++;
	k->ninst++;
	if (!k->any || block > k->maxblock)
		k->maxblock = block;
	k->any = 1;
}

static void read_block(struct kern *k, gc_lines *in, uint32_t block)
{
	gc_import *im = k->im;
	int syntax = 0; /* 1: "=====" records; 2: one record a line */
	int hex = 0;    /* the subcore stream printed hex already */
	int checked = 0;
	struct slots ws = {NULL, 0, 0};
	struct pline l;
	char *line;

	while (gc_lines_next(in, &line) >= 0) {
		const char *p = blanks(line);
		if (!*p)
			continue;
		if (strncmp(p, "=====", 5) == 0 && end_of_token(p + 5)) {
			if (!syntax)
				syntax = 1;
			continue;
		}
		if (!syntax)
			syntax = 2;
		if (!checked && k->e && k->e->has_grid) {
			uint64_t n = (uint64_t)k->e->grid[0] * k->e->grid[1] * k->e->grid[2];
			if (block >= n) {
				gc_import_bad(im, in, "block %u is outside the grid of kernel %u "
					      "(%llu blocks)", block, k->k, (unsigned long long)n);
				break;
			}
		}
		checked = 1;

		int line_hex = hex;
		l.slot = l.amask = l.pmask = 0;
		l.has_masks = 0;
		if (parse_opcode(im, in, &p, &l) < 0 ||
		    (syntax == 2 && parse_level_fields(im, in, &p, &l, &line_hex) < 0) ||
		    parse_addrs(im, in, p, &l) < 0)
			continue;
		if (l.na)
			line_hex = 1;
		if (syntax == 2)
			hex = line_hex;
		size_t wi = warp_index(k, &ws, syntax == 2 && (im->ppt_level & 4), l.slot);
		add_inst(k, in, &l, block, wi, &ws.w[wi]);
	}
	free(ws.w);
}

static void write_kernel(struct kern *k, const char *fallback_name)
{
	gc_import *im = k->im;
	const struct entry *e = k->e;
	gc_kernel g;
	char name[64];
	/* The tracer's kernel number K (kernel_K_block_B.mem) is the id. */
	uint32_t id = k->has_k ? k->k : gc_import_next_id(im);
	if (e && e->name)
		gc_kernel_init(&g, id, e->name);
	else {
		if (k->has_k)
			snprintf(name, sizeof name, "kernel_%u", k->k);
		else
			snprintf(name, sizeof name, "%s", fallback_name);
		gc_kernel_init(&g, id, name);
	}
	/* Without app_config: the smallest one-dimensional grid holding the
	 * blocks seen, and 32 threads per warp seen. */
	if (k->any)
		g.grid[0] = k->maxblock + 1;
	uint32_t warps = k->maxwarps ? k->maxwarps : 1;
	g.block[0] = (uint16_t)(warps > UINT16_MAX / LANES ? UINT16_MAX / LANES * LANES : warps * LANES);
	if (e && e->has_grid)
		memcpy(g.grid, e->grid, sizeof g.grid);
	if (e && e->has_block)
		memcpy(g.block, e->block, sizeof g.block);
	if (e && e->has_regs)
		g.regs = e->regs;
	if (e && e->has_shmem)
		g.shmem = e->shmem;
	gc_kernel_set_attr(&g, GC_A_MEM_INSTS, k->ninst);
	if (e && e->has_stream)
		gc_kernel_set_attr(&g, GC_A_STREAM, e->stream);
	gc_import_kbegin(im, &g);
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.kernel = g.id;
	gc_spool_emit(im, &k->acc, &r, NULL);
	gc_import_kend(im);
	k->ninst = 0;
	k->any = 0;
	k->maxblock = k->maxwarps = 0;
}

static void kern_free(struct kern *k)
{
	gc_spool_free(&k->acc);
}

/* ---- a whole run: app_config and memory_traces/ ------------------------- */

struct bfile {
	uint32_t k, b;
	char *path;
};

static int bfile_cmp(const void *a, const void *b)
{
	const struct bfile *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void import_run(gc_import *im, gc_lines *in)
{
	struct config cf;
	memset(&cf, 0, sizeof cf);
	config_parse(im, in, &cf);

	const char *path = gc_lines_name(in);
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (strcmp(path, "stdin") == 0 || !slash)
		snprintf(dir, sizeof dir, "memory_traces");
	else if ((size_t)(slash - path) < sizeof dir - 16)
		snprintf(dir, sizeof dir, "%.*s/memory_traces", (int)(slash - path) & 4095, path);
	else
		im->fatal(im, "path of app_config too long");
	char msg[4600];
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(msg, sizeof msg, "%s: no block files: %s: %s", path, dir, strerror(errno));
		im->fatal(im, msg);
	}
	struct bfile *f = NULL;
	size_t nf = 0, cfl = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		uint32_t k, b;
		if (parse_name(de->d_name, &k, &b) != 1)
			continue;
		f = gc_import_grow(im, f, &cfl, nf + 1, sizeof *f);
		f[nf].k = k;
		f[nf].b = b;
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		f[nf].path = malloc(len);
		if (!f[nf].path)
			im->fatal(im, "out of memory");
		snprintf(f[nf].path, len, "%s/%s", dir, de->d_name);
		nf++;
	}
	closedir(d);
	for (size_t i = 0; i < nf; i++)
		gc_import_will_read(im, f[i].path, 1);
	if (nf)
		qsort(f, nf, sizeof *f, bfile_cmp);
	for (size_t i = 1; i < nf; i++)
		if (f[i].k == f[i - 1].k && f[i].b == f[i - 1].b) {
			snprintf(msg, sizeof msg, "%s and %s hold the same block", f[i - 1].path,
				 f[i].path);
			im->fatal(im, msg);
		}

	/* The kernels: those with an entry or with block files. */
	uint32_t *ks = NULL;
	size_t nk = 0, ck = 0;
	ks = gc_import_grow(im, ks, &ck, cf.n + nf + 1, sizeof *ks);
	for (size_t i = 0; i < cf.n; i++)
		ks[nk++] = cf.e[i].k;
	for (size_t i = 0; i < nf; i++)
		ks[nk++] = f[i].k;
	if (nk)
		qsort(ks, nk, sizeof *ks, u32_cmp);

	struct kern k;
	memset(&k, 0, sizeof k);
	k.im = im;
	size_t fi = 0;
	for (size_t i = 0; i < nk; i++) {
		if (i && ks[i] == ks[i - 1])
			continue;
		k.k = ks[i];
		k.has_k = 1;
		k.e = config_find(&cf, ks[i]);
		for (; fi < nf && f[fi].k == ks[i]; fi++) {
			gc_lines *bl = gc_lines_open(f[fi].path);
			if (!bl)
				im->fatal(im, "out of memory");
			if (gc_lines_failed(bl))
				im->fatal(im, gc_lines_error(bl));
			read_block(&k, bl, f[fi].b);
			if (gc_lines_failed(bl))
				im->fatal(im, gc_lines_error(bl));
			gc_import_text(im, bl);
			gc_lines_close(bl);
		}
		write_kernel(&k, "");
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i].path);
	free(f);
	free(ks);
	kern_free(&k);
	config_free(&cf);
}

/* ---- the format --------------------------------------------------------- */

/* app_config text: comments, then kernel_<n> = or app_kernels_id =. */
static int config_text(const char *s, size_t n)
{
	size_t i = 0;
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
			i++;
		if (i < n && s[i] == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	if (n - i >= 14 && memcmp(s + i, "app_kernels_id", 14) == 0)
		return 1;
	if (n - i < 8 || memcmp(s + i, "kernel_", 7) != 0)
		return 0;
	i += 7;
	size_t d = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i > d && i < n && s[i] == '=';
}

static int is_config(const char *head, size_t len, const char *path)
{
	char base[256];
	base_name(path, base, sizeof base);
	return strcmp(base, "app_config.py") == 0 || strcmp(base, "app_config") == 0 ||
	       config_text(head, len);
}

int gc_ppt_probe(const char *head, size_t len, const char *path)
{
	if (is_config(head, len, path))
		return 90;
	size_t i = 0;
	while (i < len && (head[i] == '\n' || head[i] == '\r' || head[i] == ' '))
		i++;
	if (len - i >= 5 && memcmp(head + i, "=====", 5) == 0 &&
	    (len - i == 5 || head[i + 5] == '\n' || head[i + 5] == '\r'))
		return 90;
	char base[256];
	base_name(path, base, sizeof base);
	size_t n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".mem") == 0)
		return 60;
	/* One record a line: an opcode, then hex numbers. */
	char opc[64];
	size_t j = i;
	while (j < len && j - i < sizeof opc - 1 && head[j] != ' ' && head[j] != '\n')
		j++;
	if (j >= len || head[j] != ' ' || j == i)
		return 0;
	memcpy(opc, head + i, j - i);
	opc[j - i] = 0;
	uint8_t op, space, flags;
	if (!gc_sass_memop(opc, &op, &space, &flags))
		return 0;
	for (; j < len && head[j] != '\n'; j++)
		if (!strchr(" \r0123456789abcdefx", head[j]))
			return 0;
	return 30;
}

int gc_ppt_import(gc_import *im, gc_lines *in)
{
	size_t len;
	const char *head = gc_lines_peek(in, &len);
	const char *path = gc_lines_name(in);
	if (!gc_header_get(&im->h, "warp_size"))
		gc_header_set(&im->h, "warp_size", "32");
	if (is_config(head, len, path)) {
		import_run(im, in);
		return 0;
	}
	uint32_t kn = 0, b = 0;
	int kind = parse_name(path, &kn, &b);
	if (kind == 2) {
		char msg[600];
		snprintf(msg, sizeof msg, "%s: per-SM trace files carry no block ids; import the "
			 "per-block files (ENV_TRACING_LEVEL bit 1)", path);
		im->fatal(im, msg);
	}
	struct config cf;
	memset(&cf, 0, sizeof cf);
	struct kern k;
	memset(&k, 0, sizeof k);
	k.im = im;
	if (kind == 1) {
		k.k = kn;
		k.has_k = 1;
		if (im->app_config) {
			config_load(im, im->app_config, &cf);
			k.e = config_find(&cf, kn);
		}
	}
	read_block(&k, in, kind == 1 ? b : 0);
	char base[256];
	base_name(path, base, sizeof base);
	if (!gc_lines_failed(in)) /* else gc-import reports the read error */
		write_kernel(&k, base);
	kern_free(&k);
	config_free(&cf);
	return 0;
}
