/*
 * profile_text.c - the text form of a G-MAP profile, gc-profile(5): the
 * writer and the reader (see profile.h).
 *
 * The writer compresses a profile's entries greedily: at each position
 * the period p (1..16) whose repetitions from there cover the most entries
 * (two repetitions at least; ties: the smaller p) makes one item, "K/D*N"
 * for p = 1, "(K/D,...)*N" else; without one, the entry alone, "K/D".
 * The similarity is written with %.15g, which reads back to a double that
 * writes the same; a control character in a kernel name is written '?'.
 *
 * The reader takes a line at a time (comment and blank lines skipped)
 * into a buffer of its own and checks every field as it goes, so the
 * first problem is the one reported, as "NAME: line N: what".
 */
#include "proxy/profile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD_MAX 16

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

static int entry_eq(const gc_pentry *a, const gc_pentry *b)
{
	return a->inst == b->inst && a->dseq == b->dseq;
}

/* Copies of e[i, i + p) back to back from i, within len. */
static uint32_t copies(const gc_pentry *e, uint32_t len, uint32_t i, uint32_t p)
{
	if (p > len - i)
		return 0;
	uint32_t n = 1;
	for (;;) {
		uint64_t at = (uint64_t)i + (uint64_t)n * p;
		if (at + p > len)
			return n;
		for (uint32_t j = 0; j < p; j++)
			if (!entry_eq(&e[at + j], &e[i + j]))
				return n;
		n++;
	}
}

static void write_entries(FILE *f, const gc_pentry *e, uint32_t len)
{
	for (uint32_t i = 0; i < len;) {
		uint32_t bp = 0, bn = 0;
		for (uint32_t p = 1; p <= PERIOD_MAX; p++) {
			uint32_t n = copies(e, len, i, p);
			if (n >= 2 && (uint64_t)n * p > (uint64_t)bn * bp) {
				bp = p;
				bn = n;
			}
		}
		if (bp == 0) {
			fprintf(f, " %u/%u", e[i].inst, e[i].dseq);
			i++;
			continue;
		}
		if (bp == 1) {
			fprintf(f, " %u/%u*%u", e[i].inst, e[i].dseq, bn);
		} else {
			fputs(" (", f);
			for (uint32_t j = 0; j < bp; j++)
				fprintf(f, "%s%u/%u", j ? "," : "", e[i + j].inst, e[i + j].dseq);
			fprintf(f, ")*%u", bn);
		}
		i += bn * bp;
	}
}

static void write_dist_line(FILE *f, const char *what, uint32_t i, const char *ctx,
			    const gc_pdist *d)
{
	fprintf(f, "%s %u ", what, i);
	if (ctx)
		fprintf(f, "%s ", ctx);
	gc_pdist_write(f, d);
	fputc('\n', f);
}

static void write_kernel(FILE *f, const gc_pkernel *k)
{
	fprintf(f, "kernel %u", k->k.id);
	if (k->k.name[0]) {
		fputc(' ', f);
		for (const char *s = k->k.name; *s; s++)
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
	fprintf(f, "\ngrid %u %u %u\n", k->k.grid[0], k->k.grid[1], k->k.grid[2]);
	fprintf(f, "block %u %u %u\n", k->k.block[0], k->k.block[1], k->k.block[2]);
	fprintf(f, "regs %u\nshmem %u\n", k->k.regs, k->k.shmem);
	for (int i = 0; i < k->k.nattr; i++)
		fprintf(f, "attr %u %llu\n", k->k.attr_key[i], (unsigned long long)k->k.attr_val[i]);
	fprintf(f, "threads %llu\naccesses %llu\ninsts %u\n", (unsigned long long)k->threads,
		(unsigned long long)k->accesses, k->ninst);
	for (uint32_t i = 0; i < k->ninst; i++) {
		const gc_pinst *in = &k->inst[i];
		fprintf(f,
			"inst %u pc 0x%x op %s space %s flags %u size %u base 0x%llx extent %lld %lld accesses %llu\n",
			i, in->pc, gc_op_name(in->op), gc_space_name(in->space), in->flags, in->size,
			(unsigned long long)in->base, (long long)in->lo, (long long)in->hi,
			(unsigned long long)in->accesses);
		for (int c = 0; c < GC_PE_NCTX; c++)
			if (in->pe[c].total > 0)
				write_dist_line(f, "pe", i, gc_pe_ctx_name[c], &in->pe[c]);
		write_dist_line(f, "pa", i, NULL, &in->pa);
	}
	fprintf(f, "profiles %u\n", k->nprof);
	for (uint32_t i = 0; i < k->nprof; i++) {
		const gc_pprof *pr = &k->prof[i];
		fprintf(f, "profile %u threads %llu len %u", i, (unsigned long long)pr->threads,
			pr->len);
		write_entries(f, pr->e, pr->len);
		fputc('\n', f);
		write_dist_line(f, "pr", i, NULL, &pr->pr);
	}
	fprintf(f, "runs %u\n", k->nrun);
	for (uint32_t i = 0; i < k->nrun; i++)
		fprintf(f, "run %llu %u\n", (unsigned long long)k->run[i].first, k->run[i].prof);
	fprintf(f, "end kernel %u\n", k->k.id);
}

int gc_profile_write(FILE *f, const gc_profile *p)
{
	fprintf(f, "%s %d\n", GC_PROFILE_MAGIC, p->version);
	fprintf(f, "warp_size %u\n", p->warp_size);
	fprintf(f, "source_format %s\n", p->source_format[0] ? p->source_format : "-");
	fprintf(f, "similarity %.15g\n", p->similarity);
	fprintf(f, "max_exact %u\nreuse_depth %u\nmax_profiles %u\nmax_runs %u\n", p->max_exact,
		p->reuse_depth, p->max_profiles, p->max_runs);
	fprintf(f, "obfuscated %d\nkernels %u\n", p->obfuscated ? 1 : 0, p->nkernel);
	for (uint32_t i = 0; i < p->nkernel; i++)
		write_kernel(f, &p->kern[i]);
	fputs("end\n", f);
	return ferror(f) ? -1 : 0;
}

/* ===================================================================== */
/* Reading                                                                */
/* ===================================================================== */

typedef struct rd {
	const char *pos, *end; /* the text not read yet */
	const char *name;
	unsigned long line;    /* of the line in buf */
	unsigned long lines;   /* lines read, comments included */
	char *buf;             /* the current line, NUL-terminated */
	size_t cap;
	int pushed;            /* buf is to be read again */
	const char *p;         /* the cursor in buf */
	const gc_profile *prof;
	char *err;
	size_t errlen;
} rd;

__attribute__((format(printf, 2, 3)))
static int perr(rd *r, const char *fmt, ...)
{
	char what[512];
	va_list a;
	va_start(a, fmt);
	vsnprintf(what, sizeof what, fmt, a);
	va_end(a);
	if (r->errlen)
		snprintf(r->err, r->errlen, "%s: line %lu: %s", r->name, r->line, what);
	return -1;
}

/* The end of the text where a line was wanted. */
static int cut_short(rd *r, const char *want)
{
	r->line = r->lines + 1;
	return perr(r, "cut short: the text ends where '%s' is wanted", want);
}

/* The next line that is not a comment or blank into buf: 1, 0 at the end
 * of the text, -1 on an error. */
static int next_line(rd *r)
{
	if (r->pushed) {
		r->pushed = 0;
		r->p = r->buf;
		return 1;
	}
	while (r->pos < r->end) {
		const char *s = r->pos, *nl = memchr(s, '\n', (size_t)(r->end - s));
		const char *e = nl ? nl : r->end;
		r->pos = nl ? nl + 1 : r->end;
		r->line = ++r->lines;
		size_t n = (size_t)(e - s);
		if (memchr(s, '\0', n))
			return perr(r, "a NUL byte in the line");
		size_t b = 0; /* not strspn: the last line may end the text, unterminated */
		while (b < n && (s[b] == ' ' || s[b] == '\t'))
			b++;
		if (b >= n || s[b] == '#')
			continue;
		if (n + 1 > r->cap) {
			size_t cap = r->cap ? r->cap : 256;
			while (cap < n + 1)
				cap *= 2;
			char *nb = realloc(r->buf, cap);
			if (!nb)
				return perr(r, "out of memory");
			r->buf = nb;
			r->cap = cap;
		}
		memcpy(r->buf, s, n);
		r->buf[n] = '\0';
		r->p = r->buf;
		return 1;
	}
	return 0;
}

/* The first word of buf, for messages. */
static const char *first_word(const rd *r, char *w, size_t wl)
{
	snprintf(w, wl, "%.*s", (int)strcspn(r->buf, " "), r->buf);
	return w;
}

/* Does the line s start with the word kw? */
static int is_kw(const char *s, const char *kw)
{
	size_t n = strlen(kw);
	return strncmp(s, kw, n) == 0 && (s[n] == ' ' || s[n] == '\0');
}

/* The next line, which starts with the word kw (the cursor after it). */
static int line_kw(rd *r, const char *kw)
{
	int got = next_line(r);
	if (got <= 0)
		return got < 0 ? -1 : cut_short(r, kw);
	size_t n = strlen(kw);
	if (!is_kw(r->buf, kw)) {
		char w[64];
		return perr(r, "want '%s', got '%s'", kw, first_word(r, w, sizeof w));
	}
	r->p = r->buf + n;
	return 0;
}

/* The line's end at the cursor. */
static int eol(rd *r, const char *after)
{
	if (*r->p == '\0')
		return 0;
	if (r->p[strspn(r->p, " \t")] == '\0')
		return perr(r, "%s: trailing blanks", after);
	return perr(r, "%s: unexpected '%.30s' after it", after, r->p + (*r->p == ' '));
}

/* " word" at the cursor: one space, then exactly the word. */
static int label(rd *r, const char *kw, const char *after)
{
	size_t n = strlen(kw);
	const char *s = r->p;
	if (s[0] != ' ' || strncmp(s + 1, kw, n) != 0 || (s[n + 1] != ' ' && s[n + 1] != '\0'))
		return perr(r, "%s: want '%s' after it", after, kw);
	r->p = s + 1 + n;
	return 0;
}

/* The end of a token at s: a space or the line's end. */
static int tok_end(const char *s)
{
	return *s == ' ' || *s == '\0';
}

/* " N": an unsigned decimal in [min, max]. */
static int get_u(rd *r, const char *field, uint64_t min, uint64_t max, uint64_t *v)
{
	const char *s = r->p;
	char *e = NULL;
	if (s[0] != ' ' || s[1] < '0' || s[1] > '9')
		return perr(r, "%s: want a number", field);
	errno = 0;
	unsigned long long x = strtoull(s + 1, &e, 10);
	if (errno || !tok_end(e))
		return perr(r, "%s: want a number, got '%.*s'", field, (int)strcspn(s + 1, " "),
			    s + 1);
	if (x < min || x > max)
		return perr(r, "%s: %llu out of range (%llu..%llu)", field, x,
			    (unsigned long long)min, (unsigned long long)max);
	*v = x;
	r->p = e;
	return 0;
}

/* " N" as a uint32_t in [min, max]. */
static int get_u32(rd *r, const char *field, uint32_t min, uint32_t max, uint32_t *v)
{
	uint64_t x;
	if (get_u(r, field, min, max, &x) < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* " N": a signed decimal. */
static int get_i(rd *r, const char *field, int64_t *v)
{
	const char *s = r->p;
	char *e = NULL;
	int neg = s[0] == ' ' && s[1] == '-';
	if (s[0] != ' ' || s[1 + neg] < '0' || s[1 + neg] > '9')
		return perr(r, "%s: want a signed number", field);
	errno = 0;
	long long x = strtoll(s + 1, &e, 10);
	if (errno || !tok_end(e))
		return perr(r, "%s: want a signed 64-bit number, got '%.*s'", field,
			    (int)strcspn(s + 1, " "), s + 1);
	*v = x;
	r->p = e;
	return 0;
}

/* " 0xH": a hexadecimal up to max. */
static int get_hex(rd *r, const char *field, uint64_t max, uint64_t *v)
{
	const char *s = r->p;
	char *e = NULL;
	if (s[0] != ' ' || s[1] != '0' || s[2] != 'x' || !strchr("0123456789abcdefABCDEF", s[3]) ||
	    s[3] == '\0')
		return perr(r, "%s: want a hexadecimal 0x...", field);
	errno = 0;
	unsigned long long x = strtoull(s + 3, &e, 16);
	if (errno || !tok_end(e) || x > max)
		return perr(r, "%s: '%.*s' out of range", field, (int)strcspn(s + 1, " "), s + 1);
	*v = x;
	r->p = e;
	return 0;
}

/* A count of items that each take a line at least: no more than the
 * bytes left (an absurd count fails here, not in malloc). */
static int plausible(rd *r, const char *field, uint64_t n)
{
	if (n > (uint64_t)(r->end - r->pos))
		return perr(r, "%s: %llu, more than the rest of the text holds", field,
			    (unsigned long long)n);
	return 0;
}

/* A line "kw N", N in [min, max]. */
static int u32_line(rd *r, const char *kw, uint32_t min, uint32_t max, uint32_t *v)
{
	if (line_kw(r, kw) < 0 || get_u32(r, kw, min, max, v) < 0)
		return -1;
	return eol(r, kw);
}

/* A line "kw N" counting the items that follow, a line each at least. */
static int count_line(rd *r, const char *kw, uint32_t max, uint32_t *n)
{
	if (u32_line(r, kw, 0, max, n) < 0)
		return -1;
	return plausible(r, kw, *n);
}

/* " DIST" to the end of the line; what names the line for messages. */
static int get_dist(rd *r, gc_pdist *d, const char *what)
{
	char e[300];
	if (r->p[0] != ' ' || r->p[1] == ' ' || r->p[1] == '\t')
		return perr(r, "%s: want one space and a distribution", what);
	r->p++;
	if (gc_pdist_parse(&r->p, d, e, sizeof e) < 0)
		return perr(r, "%s: %s", what, e);
	if (d->nexact > r->prof->max_exact)
		return perr(r, "%s: exact: %u values, more than max_exact %u", what, d->nexact,
			    r->prof->max_exact);
	return eol(r, what);
}

/* ---- the profile's settings ------------------------------------------- */

static int read_settings(rd *r, gc_profile *p)
{
	uint32_t v;
	if (line_kw(r, GC_PROFILE_MAGIC) < 0)
		return -1;
	if (get_u32(r, "version", 0, UINT32_MAX, &v) < 0 || eol(r, "version") < 0)
		return -1;
	if (v != GC_PROFILE_VERSION)
		return perr(r, "version: %u not supported (want %d)", v, GC_PROFILE_VERSION);
	p->version = (int)v;
	if (u32_line(r, "warp_size", 1, 256, &v) < 0)
		return -1;
	p->warp_size = v;
	if (line_kw(r, "source_format") < 0)
		return -1;
	const char *sf = r->p + 1;
	if (r->p[0] != ' ' || *sf == '\0' || *sf == ' ')
		return perr(r, "source_format: want a name, or '-'");
	if (strlen(sf) >= sizeof p->source_format)
		return perr(r, "source_format: longer than %zu characters",
			    sizeof p->source_format - 1);
	strcpy(p->source_format, strcmp(sf, "-") == 0 ? "" : sf);
	if (line_kw(r, "similarity") < 0)
		return -1;
	char *e = NULL;
	const char *s = r->p + 1;
	double sim = r->p[0] == ' ' && ((*s >= '0' && *s <= '9') || *s == '.') ? strtod(s, &e) : -1;
	if (!e || *e != '\0' || !(sim >= 0 && sim <= 1))
		return perr(r, "similarity: want a number from 0 to 1");
	p->similarity = sim;
	if (u32_line(r, "max_exact", 1, GC_PDIST_EXACT_MAX, &p->max_exact) < 0 ||
	    u32_line(r, "reuse_depth", 0, UINT32_MAX, &p->reuse_depth) < 0 ||
	    u32_line(r, "max_profiles", 0, UINT32_MAX, &p->max_profiles) < 0 ||
	    u32_line(r, "max_runs", 0, UINT32_MAX, &p->max_runs) < 0 ||
	    u32_line(r, "obfuscated", 0, 1, &v) < 0)
		return -1;
	p->obfuscated = (int)v;
	return 0;
}

/* ---- a kernel section ------------------------------------------------- */

static int read_launch(rd *r, gc_pkernel *k)
{
	uint32_t id, v[3];
	if (line_kw(r, "kernel") < 0 || get_u32(r, "kernel", 0, UINT32_MAX, &id) < 0)
		return -1;
	const char *name = "";
	if (*r->p == ' ')
		name = r->p + 1;
	else if (eol(r, "kernel") < 0)
		return -1;
	if (strlen(name) > GC_NAME_MAX)
		return perr(r, "kernel: a name longer than %d characters", GC_NAME_MAX);
	gc_kernel_init(&k->k, id, name);
	static const char *const gx[3] = {"grid x", "grid y", "grid z"};
	static const char *const bx[3] = {"block x", "block y", "block z"};
	if (line_kw(r, "grid") < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (get_u32(r, gx[i], 1, i ? 65535 : UINT32_MAX, &v[i]) < 0)
			return -1;
	if (eol(r, "grid") < 0)
		return -1;
	memcpy(k->k.grid, v, sizeof v);
	if (line_kw(r, "block") < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		if (get_u32(r, bx[i], 1, 65535, &v[i]) < 0)
			return -1;
		k->k.block[i] = (uint16_t)v[i];
	}
	if (eol(r, "block") < 0)
		return -1;
	if (u32_line(r, "regs", 0, 65535, &v[0]) < 0 ||
	    u32_line(r, "shmem", 0, UINT32_MAX, &k->k.shmem) < 0)
		return -1;
	k->k.regs = (uint16_t)v[0];
	for (;;) {
		int got = next_line(r);
		if (got <= 0)
			return got < 0 ? -1 : cut_short(r, "threads");
		if (!is_kw(r->buf, "attr")) {
			r->pushed = 1;
			break;
		}
		r->p = r->buf + 4;
		uint32_t key;
		uint64_t val, old;
		if (get_u32(r, "attr key", 0, 65535, &key) < 0 ||
		    get_u(r, "attr value", 0, UINT64_MAX, &val) < 0 || eol(r, "attr") < 0)
			return -1;
		if (gc_kernel_get_attr(&k->k, (uint16_t)key, &old))
			return perr(r, "attr: key %u twice", key);
		if (gc_kernel_set_attr(&k->k, (uint16_t)key, val) < 0)
			return perr(r, "attr: more than %d attributes", GC_ATTR_MAX);
	}
	unsigned __int128 t = (unsigned __int128)gc_kernel_blocks(&k->k) *
			      gc_kernel_threads_per_block(&k->k);
	if (line_kw(r, "threads") < 0 || get_u(r, "threads", 0, UINT64_MAX, &k->threads) < 0 ||
	    eol(r, "threads") < 0)
		return -1;
	if (t != k->threads)
		return perr(r, "threads: %llu, but the grid and block make %.0f",
			    (unsigned long long)k->threads, (double)t);
	if (line_kw(r, "accesses") < 0 || get_u(r, "accesses", 0, UINT64_MAX, &k->accesses) < 0 ||
	    eol(r, "accesses") < 0)
		return -1;
	return 0;
}

static int read_inst(rd *r, uint32_t i, gc_pinst *in)
{
	uint32_t idx;
	uint64_t v;
	if (line_kw(r, "inst") < 0 || get_u32(r, "inst", 0, UINT32_MAX, &idx) < 0)
		return -1;
	if (idx != i)
		return perr(r, "inst: index %u, want %u", idx, i);
	if (label(r, "pc", "inst") < 0 || get_hex(r, "pc", UINT32_MAX, &v) < 0)
		return -1;
	in->pc = (uint32_t)v;
	if (label(r, "op", "pc") < 0)
		return -1;
	char w[32];
	if (*r->p != ' ') /* the line ends at the label: nothing after it to read */
		return perr(r, "op: want load, store or atomic");
	snprintf(w, sizeof w, "%.*s", (int)strcspn(r->p + 1, " "), r->p + 1);
	int op = gc_op_parse(w);
	if (op < 0)
		return perr(r, "op: '%s' is not load, store or atomic", w);
	in->op = (uint8_t)op;
	r->p += 1 + strlen(w);
	if (label(r, "space", "op") < 0)
		return -1;
	if (*r->p != ' ')
		return perr(r, "space: want a memory space");
	snprintf(w, sizeof w, "%.*s", (int)strcspn(r->p + 1, " "), r->p + 1);
	int sp = gc_space_parse(w);
	if (sp < 0)
		return perr(r, "space: '%s' is no memory space", w);
	in->space = (uint8_t)sp;
	r->p += 1 + strlen(w);
	if (label(r, "flags", "space") < 0 || get_u(r, "flags", 0, 15, &v) < 0)
		return -1;
	in->flags = (uint8_t)v;
	if (label(r, "size", "flags") < 0 || get_u(r, "size", 1, 65535, &v) < 0)
		return -1;
	in->size = (uint16_t)v;
	if (label(r, "base", "size") < 0 || get_hex(r, "base", UINT64_MAX, &in->base) < 0)
		return -1;
	if (label(r, "extent", "base") < 0 || get_i(r, "extent lo", &in->lo) < 0 ||
	    get_i(r, "extent hi", &in->hi) < 0)
		return -1;
	if (in->lo > in->hi)
		return perr(r, "extent: lo %lld above hi %lld", (long long)in->lo, (long long)in->hi);
	if (label(r, "accesses", "extent") < 0 ||
	    get_u(r, "accesses", 0, UINT64_MAX, &in->accesses) < 0 || eol(r, "accesses") < 0)
		return -1;
	/* pe lines, contexts in order, then pa. */
	int last = -1;
	for (;;) {
		int got = next_line(r);
		if (got <= 0)
			return got < 0 ? -1 : cut_short(r, "pa");
		if (is_kw(r->buf, "pa")) {
			r->p = r->buf + 2;
			break;
		}
		if (!is_kw(r->buf, "pe"))
			return perr(r, "want 'pe' or 'pa', got '%s'", first_word(r, w, sizeof w));
		r->p = r->buf + 2;
		if (get_u32(r, "pe", 0, UINT32_MAX, &idx) < 0)
			return -1;
		if (idx != i)
			return perr(r, "pe: instruction %u, want %u", idx, i);
		const char *s = r->p + 1;
		size_t n = r->p[0] == ' ' ? strcspn(s, " ") : 0; /* not past the line's end */
		int c = -1;
		for (int j = 0; j < GC_PE_NCTX && r->p[0] == ' '; j++)
			if (strlen(gc_pe_ctx_name[j]) == n && strncmp(s, gc_pe_ctx_name[j], n) == 0)
				c = j;
		if (c < 0)
			return perr(r, "pe: want a context (bz by bx tz ty tx), got '%.*s'", (int)n, s);
		if (c <= last)
			return perr(r, "pe: context %s %s", gc_pe_ctx_name[c],
				    c == last ? "twice" : "out of order (bz by bx tz ty tx)");
		last = c;
		r->p = s + n;
		char what[32];
		snprintf(what, sizeof what, "pe %u %s", i, gc_pe_ctx_name[c]);
		if (get_dist(r, &in->pe[c], what) < 0)
			return -1;
		if (in->pe[c].total == 0)
			return perr(r, "%s: total 0 (a context without samples has no line)", what);
	}
	if (get_u32(r, "pa", 0, UINT32_MAX, &idx) < 0)
		return -1;
	if (idx != i)
		return perr(r, "pa: instruction %u, want %u", idx, i);
	char what[32];
	snprintf(what, sizeof what, "pa %u", i);
	return get_dist(r, &in->pa, what);
}

/* One item of ENTRIES at s, "K/D": 0 and s advanced, or -1. */
static int get_entry(rd *r, const char **s, const gc_pkernel *k, gc_pentry *e)
{
	const char *p = *s;
	char *x;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	unsigned long long inst = strtoull(p, &x, 10);
	if (errno || *x != '/' || x[1] < '0' || x[1] > '9')
		return -1;
	p = x + 1;
	unsigned long long d = strtoull(p, &x, 10);
	if (errno || d > UINT32_MAX)
		return -1;
	if (inst >= k->ninst)
		return perr(r, "entries: instruction %llu out of range (insts %u)", inst, k->ninst) - 1;
	e->inst = (uint32_t)inst;
	e->dseq = (uint32_t)d;
	*s = x;
	return 0;
}

/* ENTRIES at the cursor, expanding to exactly pr->len entries. */
static int read_entries(rd *r, const gc_pkernel *k, gc_pprof *pr)
{
	uint32_t at = 0;
	const char *s = r->p;
	while (*s == ' ') {
		const char *item = ++s;
		size_t n = strcspn(item, " ");
		int group = *s == '(';
		uint32_t first = at;
		s += group;
		do {
			if (at >= pr->len)
				return perr(r, "entries: more than len %u", pr->len);
			int g = get_entry(r, &s, k, &pr->e[at]);
			if (g == -2)
				return -1;
			if (g < 0)
				goto bad;
			at++;
		} while (group && *s == ',' && s++);
		if (group && *s++ != ')')
			goto bad;
		uint64_t times = 1;
		if (*s == '*') {
			char *x;
			if (s[1] < '1' || s[1] > '9')
				goto bad;
			errno = 0;
			times = strtoull(s + 1, &x, 10);
			if (errno)
				goto bad;
			s = x;
		} else if (group) {
			goto bad;
		}
		if (!tok_end(s))
			goto bad;
		uint32_t g = at - first;
		if (times - 1 > (pr->len - at) / g)
			return perr(r, "entries: more than len %u", pr->len);
		for (uint64_t t = 1; t < times; t++, at += g)
			memcpy(&pr->e[at], &pr->e[first], g * sizeof *pr->e);
		continue;
bad:
		return perr(r, "entries: '%.*s' is not K/D, K/D*N or (K/D,...)*N", (int)n, item);
	}
	r->p = s;
	if (at != pr->len)
		return perr(r, "entries: %u, but len %u", at, pr->len);
	return eol(r, "entries");
}

static int read_profile(rd *r, gc_pkernel *k, uint32_t i, gc_pprof *pr)
{
	uint32_t idx;
	if (line_kw(r, "profile") < 0 || get_u32(r, "profile", 0, UINT32_MAX, &idx) < 0)
		return -1;
	if (idx != i)
		return perr(r, "profile: index %u, want %u", idx, i);
	if (label(r, "threads", "profile") < 0 ||
	    get_u(r, "threads", 1, k->threads, &pr->threads) < 0)
		return -1;
	if (i && pr->threads > k->prof[i - 1].threads)
		return perr(r, "threads: %llu, more than profile %u's %llu (profiles by descending threads)",
			    (unsigned long long)pr->threads, i - 1,
			    (unsigned long long)k->prof[i - 1].threads);
	if (label(r, "len", "threads") < 0 || get_u32(r, "len", 0, UINT32_MAX, &pr->len) < 0)
		return -1;
	if (pr->len) {
		pr->e = malloc((size_t)pr->len * sizeof *pr->e);
		if (!pr->e)
			return perr(r, "entries: out of memory for len %u", pr->len);
	}
	if (read_entries(r, k, pr) < 0)
		return -1;
	if (line_kw(r, "pr") < 0 || get_u32(r, "pr", 0, UINT32_MAX, &idx) < 0)
		return -1;
	if (idx != i)
		return perr(r, "pr: profile %u, want %u", idx, i);
	char what[32];
	snprintf(what, sizeof what, "pr %u", i);
	return get_dist(r, &pr->pr, what);
}

static int read_kernel(rd *r, gc_pkernel *k)
{
	if (read_launch(r, k) < 0)
		return -1;
	uint32_t n;
	if (count_line(r, "insts", UINT32_MAX, &n) < 0)
		return -1;
	if (n && !(k->inst = calloc(n, sizeof *k->inst)))
		return perr(r, "insts: out of memory");
	k->ninst = n;
	uint64_t acc = 0;
	for (uint32_t i = 0; i < n; i++) {
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_init(&k->inst[i].pe[c]);
		gc_pdist_init(&k->inst[i].pa);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (read_inst(r, i, &k->inst[i]) < 0)
			return -1;
		acc += k->inst[i].accesses;
	}
	if (acc != k->accesses)
		return perr(r, "accesses: the kernel's %llu, but its instructions' add up to %llu",
			    (unsigned long long)k->accesses, (unsigned long long)acc);
	if (count_line(r, "profiles", UINT32_MAX, &n) < 0)
		return -1;
	if (n && !(k->prof = calloc(n, sizeof *k->prof)))
		return perr(r, "profiles: out of memory");
	k->nprof = n;
	uint64_t threads = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (read_profile(r, k, i, &k->prof[i]) < 0)
			return -1;
		threads += k->prof[i].threads;
		if (threads > k->threads)
			return perr(r, "threads: profiles 0..%u have %llu threads, more than the kernel's %llu",
				    i, (unsigned long long)threads, (unsigned long long)k->threads);
	}
	if (threads != k->threads)
		return perr(r, "profiles: their threads add up to %llu, not the kernel's %llu",
			    (unsigned long long)threads, (unsigned long long)k->threads);
	if (count_line(r, "runs", r->prof->max_runs, &n) < 0)
		return -1;
	if (n && !(k->run = calloc(n, sizeof *k->run)))
		return perr(r, "runs: out of memory");
	k->nrun = n;
	for (uint32_t i = 0; i < n; i++) {
		gc_prun *u = &k->run[i];
		if (line_kw(r, "run") < 0 || get_u(r, "run first", 0, k->threads - 1, &u->first) < 0 ||
		    get_u32(r, "run profile", 0, k->nprof ? k->nprof - 1 : 0, &u->prof) < 0 ||
		    eol(r, "run") < 0)
			return -1;
		if (k->nprof == 0)
			return perr(r, "run: no profiles to name");
		if (i == 0 && u->first != 0)
			return perr(r, "run first: %llu, but the first run starts at thread 0",
				    (unsigned long long)u->first);
		if (i && u->first <= k->run[i - 1].first)
			return perr(r, "run first: %llu, not above the run before's %llu",
				    (unsigned long long)u->first,
				    (unsigned long long)k->run[i - 1].first);
		if (i && u->prof == k->run[i - 1].prof)
			return perr(r, "run profile: %u, the same as the run before's", u->prof);
	}
	uint32_t id;
	if (line_kw(r, "end") < 0)
		return -1;
	if (label(r, "kernel", "end") < 0 || get_u32(r, "end kernel", 0, UINT32_MAX, &id) < 0 ||
	    eol(r, "end kernel") < 0)
		return -1;
	if (id != k->k.id)
		return perr(r, "end kernel: %u, but the section is kernel %u", id, k->k.id);
	return 0;
}

static int read_profile_text(rd *r, gc_profile *p)
{
	if (read_settings(r, p) < 0)
		return -1;
	uint32_t n;
	if (count_line(r, "kernels", UINT32_MAX, &n) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		int got = next_line(r);
		if (got < 0)
			return -1;
		if (got == 0)
			return cut_short(r, "kernel");
		r->pushed = 1;
		if (strcmp(r->buf, "end") == 0)
			return perr(r, "kernels: %u, but 'end' after %u", n, i);
		gc_pkernel k;
		memset(&k, 0, sizeof k);
		int bad = read_kernel(r, &k);
		if (!bad && gc_profile_add_kernel(p, &k) < 0)
			bad = perr(r, "out of memory");
		gc_pkernel_free(&k);
		if (bad)
			return -1;
	}
	int got = next_line(r);
	if (got <= 0)
		return got < 0 ? -1 : cut_short(r, "end");
	if (strcmp(r->buf, "end") != 0) {
		char w[64];
		if (strncmp(r->buf, "kernel ", 7) == 0)
			return perr(r, "kernels: %u, but another kernel section follows", n);
		return perr(r, "want 'end', got '%s'", first_word(r, w, sizeof w));
	}
	got = next_line(r);
	if (got < 0)
		return -1;
	if (got > 0)
		return perr(r, "unexpected '%.30s' after the final 'end'", r->buf);
	return 0;
}

int gc_profile_parse(const char *text, size_t len, const char *name, gc_profile *p,
		     char *err, size_t errlen)
{
	rd r;
	memset(&r, 0, sizeof r);
	r.pos = text;
	r.end = text + len;
	r.name = name;
	r.prof = p;
	r.err = err;
	r.errlen = errlen;
	gc_profile_init(p);
	int rc = read_profile_text(&r, p);
	free(r.buf);
	if (rc < 0)
		gc_profile_free(p);
	return rc;
}
