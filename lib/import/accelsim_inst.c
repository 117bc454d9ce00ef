/*
 * accelsim_inst.c - one instruction line of an Accel-Sim trace: where it
 * runs (raw traces and old .traceg lines name the block and warp), its
 * PC, mask, registers, opcode and mem_width, then for a memory instruction
 * the address payload, the LDGSTS pairing and the record.
 */
#include "import/accelsim_impl.h"
#include "import/import.h"

#include <string.h>

/* ---- opcodes ------------------------------------------------------------ */

/* Width and memory operation of the opcode op (len bytes, NUL-terminated),
 * computed once per distinct opcode. */
static const opcache *opcode(parser *p, const char *op, size_t len)
{
	/* A cheap hash: a file holds a few dozen distinct opcodes. */
	uint32_t h = (uint32_t)len * 7919u + (unsigned char)op[0] * 31u +
		     (unsigned char)op[len / 2] * 131u + (unsigned char)op[len - 1] * 1031u +
		     (unsigned char)op[len / 3] * 17u;
	opcache *e = &p->opc[h % OPC_SLOTS];
	if (e->len == len && len <= OPC_LEN && memcmp(e->name, op, len) == 0)
		return e;
	static opcache tmp;
	opcache *o = len <= OPC_LEN ? e : &tmp;
	memset(o, 0, sizeof *o);
	if (len <= OPC_LEN) {
		memcpy(o->name, op, len);
		o->len = (uint8_t)len;
	}
	o->mem = (uint8_t)gc_sass_memop(op, &o->op, &o->space, &o->flags);
	o->size = (uint16_t)gc_sass_width(op);
	o->ldgsts = (uint8_t)starts(op, "LDGSTS");
	o->cls = (uint8_t)(o->mem || !p->im->intervals ? GC_IV_INT : gc_iv_class(op));
	if (o->cls == GC_IV_UNKNOWN && p->im->intervals)
		gc_import_unknown_opcode(p->im, op);
	return o;
}

/* ---- instruction lines -------------------------------------------------- */

/* Tokens from s to the end of the line (or a fork's STORE_DATA tail). */
static int count_tokens(char *s)
{
	int n = 0;
	for (s = skipsp(s); *s && !starts(s, "STORE_DATA"); s = skipsp(tokend(s)))
		n++;
	return n;
}

/* The address payload after mem_width: fills m->addr for the lanes of
 * m->mask, then reads the trailing immediate (version 5).  Returns 0 on a
 * bad line (reported). */
static int payload(parser *p, char *t, minst *m)
{
	kstate *c = &p->c;
	char b[64];
	int n = (int)gc_popcount32(m->mask), want = 0, v5 = c->ver >= 5;
	uint64_t base, a;
	int64_t d;
	char *list;
	if (!(t[0] >= '0' && t[0] <= '2' && TOK_END(t[1]))) {
		if (!*t)
			as_bad(p, "line ends before the address mode (mem_width is not 0)");
		else
			as_bad(p, "bad address mode %s (0 list, 1 base+stride, 2 base+delta)",
			       as_show(t, b, sizeof b));
		return 0;
	}
	int mode = t[0] - '0';
	t = skipsp(t + 1);
	m->strided = 0;
	if (mode == 0) {
		list = t;
		want = n;
		for (uint32_t mk = m->mask; mk; mk &= mk - 1) {
			if (!tok_x(&t, &a)) {
				if (!*t)
					goto count;
				as_badtok(p, t, "address");
				return 0;
			}
			m->addr[__builtin_ctz(mk)] = a;
		}
		m->base = m->mask ? m->addr[__builtin_ctz(m->mask)] : 0;
	} else {
		if (!tok_x(&t, &base)) {
			as_badtok(p, t, "base address");
			return 0;
		}
		list = t;
		a = base;
		m->base = base;
		if (mode == 1) {
			if (!tok_i(&t, &d)) {
				as_badtok(p, t, "stride");
				return 0;
			}
			/* as_commit() gives the k-th active lane (of a contiguous
			 * run) base + k * stride. */
			m->strided = 1;
			m->stride = d;
		} else {
			/* Exactly popcount - 1 deltas, each from the previous active lane. */
			want = n ? n - 1 : 0;
			uint32_t mk = m->mask;
			if (mk) {
				m->addr[__builtin_ctz(mk)] = a;
				mk &= mk - 1;
			}
			for (; mk; mk &= mk - 1) {
				if (!tok_i(&t, &d)) {
					if (!*t)
						goto count;
					as_badtok(p, t, "delta");
					return 0;
				}
				a += (uint64_t)d;
				m->addr[__builtin_ctz(mk)] = a;
			}
		}
	}
	if (v5) {
		if (!*t && mode != 1)
			goto count;
		if (!tok_i(&t, &d)) {
			as_badtok_hint(p, t, "immediate", V5_HINT);
			return 0;
		}
	}
	if (!*t || starts(t, "STORE_DATA"))
		return 1;
	if (mode == 1) {
		as_bad(p, "unexpected %s after the base+stride payload%s", as_show(t, b, sizeof b),
		       v5 ? " and the immediate" : " (tracer versions before 5 end the line here)");
		return 0;
	}
count:
	/* The number of payload tokens does not match the mask. */
	as_bad(p, "%s: mask %08x has %d active lane%s, so %d %s%s expected; found %d%s",
	       mode == 2 ? "base+delta" : "address list", m->mask, n, n == 1 ? "" : "s", want,
	       mode == 2 ? (want == 1 ? "delta" : "deltas") : (want == 1 ? "address" : "addresses"),
	       v5 ? " and the immediate are" : want == 1 ? " is" : " are",
	       count_tokens(list), v5 ? " tokens" : "");
	return 0;
}

/* TOOL_TRACE_CORE=1 puts "sm_id warpid_sm" after the raw prefix: tell by
 * where the 8-digit mask is (t is the token after the warp). */
static int is_mask(const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!as_ishex[(unsigned char)s[i]])
			return 0;
	return TOK_END(s[8]);
}

static int detect_core(parser *p, char *t)
{
	char *tok[8];
	int n = 0, li = p->c.lineinfo;
	for (char *s = skipsp(t); *s && n < 8; s = skipsp(tokend(s)))
		tok[n++] = s;
	if (n > 1 + li && is_mask(tok[1 + li]))
		return 0;
	if (n > 3 + li && is_mask(tok[3 + li]))
		return 1;
	return 0; /* the normal parse says what is wrong */
}

/* n register tokens; with reg (--intervals) not NULL, their registers
 * (gc_iv_reg) into reg[0..n). */
static int read_regs(parser *p, char **ps, uint64_t n, const char *what, uint16_t *reg)
{
	char *t = *ps;
	for (uint64_t i = 0; i < n; i++) {
		if (!*t) {
			as_bad(p, "line ends before %s register %llu of %llu", what,
			       (unsigned long long)i + 1, (unsigned long long)n);
			return 0;
		}
		char *e = tokend(t);
		if (reg)
			reg[i] = (uint16_t)gc_iv_reg(t, (size_t)(e - t));
		t = skipsp(e);
	}
	*ps = t;
	return 1;
}

/* An instruction line, decoded up to its mem_width. */
typedef struct iline {
	char *t;               /* the rest of the line */
	uint32_t block, warp;  /* raw: from the line; .traceg: the section's */
	uint16_t sm;           /* raw with TOOL_TRACE_CORE: the sm_id column */
	uint32_t pc, mask;
	char *op;              /* the opcode, NUL-terminated */
	size_t ol;
	uint64_t mw;           /* mem_width: 0 for no address payload */
	int iv;                /* --intervals, second pass: registers read */
	int nd, ns;
	uint16_t dst[MAX_REGS], src[MAX_REGS];
} iline;

/* ctaX ctaY ctaZ warp_in_cta: raw traces, and every line of a .traceg
 * before tracer version 3.  A raw line gives the block and warp (and
 * sm_id warpid_sm after them with TOOL_TRACE_CORE=1); a .traceg line must
 * agree with its section.  Returns 0 on a bad line (reported). */
static int inst_where(parser *p, iline *l, int raw)
{
	kstate *c = &p->c;
	char *t = l->t, *t0;
	uint64_t v;
	static const char *const nm[4] = {"thread block x", "thread block y",
					  "thread block z", "warp number"};
	uint64_t x[4];
	for (int i = 0; i < 4; i++)
		if (!tok_u(&t, &x[i])) {
			as_badtok(p, t, nm[i]);
			return 0;
		}
	if (raw) {
		if (c->core < 0)
			c->core = detect_core(p, t);
		if (c->core) {
			if ((t0 = t, !tok_u(&t, &v) || v > 65535)) {
				as_badtok_hint(p, t0, "sm_id", " (TOOL_TRACE_CORE column)");
				return 0;
			}
			l->sm = (uint16_t)v;
			if (!tok_u(&t, &v)) {
				as_badtok_hint(p, t, "warpid_sm", " (TOOL_TRACE_CORE column)");
				return 0;
			}
		}
		if (x[0] >= c->k.grid[0] || x[1] >= c->k.grid[1] || x[2] >= c->k.grid[2]) {
			as_bad(p, "thread block (%llu,%llu,%llu) is outside the grid (%u,%u,%u)",
			       (unsigned long long)x[0], (unsigned long long)x[1],
			       (unsigned long long)x[2], c->k.grid[0], c->k.grid[1], c->k.grid[2]);
			return 0;
		}
		if (x[3] >= c->wpb) {
			as_bad(p, "warp %llu is outside the block (%u warps)",
			       (unsigned long long)x[3], c->wpb);
			return 0;
		}
		l->block = (uint32_t)((x[2] * c->k.grid[1] + x[1]) * c->k.grid[0] + x[0]);
		l->warp = (uint32_t)x[3];
	} else if (x[0] != c->bx || x[1] != c->by || x[2] != c->bz || x[3] != c->warp) {
		as_bad(p, "the line says thread block (%llu,%llu,%llu) warp %llu, but it is in "
		       "the section of thread block (%u,%u,%u) warp %u",
		       (unsigned long long)x[0], (unsigned long long)x[1],
		       (unsigned long long)x[2], (unsigned long long)x[3], c->bx, c->by, c->bz,
		       c->warp);
		return 0;
	}
	l->t = t;
	return 1;
}

/* [line number] PC mask dest_num dest... opcode src_num src... mem_width.
 * Returns 0 on a bad line (reported). */
static int inst_fields(parser *p, iline *l)
{
	kstate *c = &p->c;
	char *t = l->t, *t0, b[64];
	uint64_t v;
	if (c->lineinfo && !tok_u(&t, &v)) {
		as_badtok_hint(p, t, "line number", " (the header says -enable lineinfo = 1)");
		return 0;
	}
	if ((t0 = t, !tok_x(&t, &v) || v > UINT32_MAX)) {
		as_badtok(p, t0, "PC");
		return 0;
	}
	l->pc = (uint32_t)v;
	if ((t0 = t, !tok_x(&t, &v) || v > UINT32_MAX)) {
		as_badtok(p, t0, "mask");
		return 0;
	}
	l->mask = (uint32_t)v;
	if ((t0 = t, !tok_u(&t, &v) || v > MAX_REGS)) {
		as_badtok(p, t0, "dest_num");
		return 0;
	}
	l->nd = (int)v;
	if (!read_regs(p, &t, v, "destination", l->iv ? l->dst : NULL))
		return 0;
	if (!(*t >= 'A' && *t <= 'Z')) {
		if (!*t)
			as_bad(p, "line ends before the opcode");
		else
			as_bad(p, "bad opcode %s (not a SASS mnemonic: is '-accelsim tracer "
			       "version' or '-enable lineinfo' right for this line?)",
			       as_show(t, b, sizeof b));
		return 0;
	}
	char *oe = tokend(t);
	l->op = t;
	l->ol = (size_t)(oe - t);
	if (*oe) {
		*oe = 0;
		t = skipsp(oe + 1);
	} else {
		t = oe;
	}
	if ((t0 = t, !tok_u(&t, &v) || v > MAX_REGS)) {
		as_badtok(p, t0, "src_num");
		return 0;
	}
	l->ns = (int)v;
	if (!read_regs(p, &t, v, "source", l->iv ? l->src : NULL))
		return 0;
	if ((t0 = t, !tok_u(&t, &l->mw) || l->mw > 65535)) {
		as_badtok(p, t0, "mem_width");
		return 0;
	}
	l->t = t;
	return 1;
}

/* --intervals: the warp of the line, its tracker state. */
static gc_iv_warp *iv_warp(parser *p, const iline *l, int raw)
{
	if (!raw)
		return &p->ivw;
	wslot *w = as_wt_get(p, (uint64_t)l->block << 16 | l->warp);
	if (!w->iv) {
		p->ivp = gc_import_grow(p->im, p->ivp, &p->ivcap, p->ivn + 1, sizeof *p->ivp);
		memset(&p->ivp[p->ivn], 0, sizeof *p->ivp);
		w->iv = (uint32_t)++p->ivn;
	}
	return &p->ivp[w->iv - 1];
}

/* --intervals: issue the line in its warp (cls GC_IV_MEMORY for a memory
 * instruction); its compute field. */
static uint64_t iv_issue(parser *p, const iline *l, int cls, int raw)
{
	if (cls == GC_IV_UNKNOWN)
		p->im->iv_unknown++;
	return gc_iv_step(iv_warp(p, l, raw), &p->im->iv_lat, cls, l->src, l->ns, l->dst,
			  l->nd);
}

/* A line without an address payload (mem_width 0): counted, after the
 * version 5 immediate is checked. */
static void inst_plain(parser *p, iline *l, int raw)
{
	kstate *c = &p->c;
	char *t = l->t, b[64];
	int64_t imm;
	if (c->ver >= 5 && !tok_i(&t, &imm)) {
		as_badtok_hint(p, t, "immediate", V5_HINT);
		return;
	}
	if (*t && !starts(t, "STORE_DATA")) {
		as_bad(p, "unexpected %s after mem_width 0%s", as_show(t, b, sizeof b),
		       c->ver >= 5 ? " and the immediate"
				   : " (lines of tracer versions before 5 end here; is "
				     "'-accelsim tracer version' right?)");
		return;
	}
	if (!raw)
		as_flush_pending(p);
	if (l->iv)
		iv_issue(p, l, opcode(p, l->op, l->ol)->cls, raw);
	c->insts++;
	c->tinsts += (uint64_t)gc_popcount32(l->mask);
}

/* A memory instruction to its warp's records.  A raw trace drops the
 * first of each LDGSTS pair of lines; a .traceg holds an LDGSTS line back
 * until the next line of its warp says whether it was the first of a
 * pair. */
static void inst_commit(parser *p, const minst *m, const iline *l, int raw)
{
	kstate *c = &p->c;
	if (raw) {
		wslot *w = as_wt_get(p, (uint64_t)l->block << 16 | l->warp);
		if (m->ldgsts) {
			/* Two lines per execution; the first (shared) one goes. */
			w->half ^= 1;
			if (w->half)
				return;
		}
		as_commit(p, m, &w->seq, l->block, l->warp, l->sm);
		return;
	}
	if (c->pending) {
		if (m->ldgsts && m->pc == c->pend.pc && m->mask == c->pend.mask) {
			c->pending = 0; /* a pair: the held first line goes */
			as_commit(p, m, &c->seq, c->block, c->warp, 0);
			return;
		}
		as_flush_pending(p);
	}
	if (m->ldgsts) {
		c->pend = *m;
		c->pending = 1;
		return;
	}
	as_commit(p, m, &c->seq, c->block, c->warp, 0);
}

/* Every active lane's bytes below 2^48 (gc-stream(5)); else the line is
 * bad, so --lenient skips it as it skips any other. */
static int lanes_below48(parser *p, const minst *m, unsigned size)
{
	if (gc_import_lanes_below48(m->mask, m->strided ? NULL : m->addr, m->base,
				    m->strided ? (uint64_t)m->stride : 0, size))
		return 1;
	uint64_t k = 0;
	for (uint32_t mk = m->mask; mk; mk &= mk - 1, k++) {
		unsigned lane = (unsigned)__builtin_ctz(mk);
		uint64_t a = m->strided ? m->base + k * (uint64_t)m->stride : m->addr[lane];
		if (!gc_import_below48(a, size)) {
			char msg[400];
			gc_import_addr48_msg(msg, sizeof msg, a, size);
			as_bad(p, "lane %u: %s", lane, msg);
			return 0;
		}
	}
	return 1;
}

/* A line with an address payload: a memory instruction when its opcode
 * loads, stores or reduces, otherwise counted like any other. */
static void inst_memory(parser *p, iline *l, int raw)
{
	kstate *c = &p->c;
	minst m;
	m.pc = l->pc;
	m.mask = l->mask;
	if (!payload(p, l->t, &m))
		return;
	const opcache *o = opcode(p, l->op, l->ol);
	if (!o->mem) {
		/* Addresses, but no load, store or atomic (CCTL, ...). */
		if (!raw)
			as_flush_pending(p);
		if (l->iv)
			iv_issue(p, l, o->cls, raw);
		c->insts++;
		c->tinsts += (uint64_t)gc_popcount32(l->mask);
		return;
	}
	unsigned size = o->size ? o->size : (unsigned)l->mw;
	if (size > 255) {
		as_bad(p, "access width %u bytes (from the opcode %s) is more than 255", size,
		       l->op);
		return;
	}
	if (!lanes_below48(p, &m, size))
		return;
	if ((p->pass == 2 || p->sp.on) && p->pcseen[l->pc % PCSEEN_SLOTS] != (uint64_t)l->pc + 1) {
		p->pcseen[l->pc % PCSEEN_SLOTS] = (uint64_t)l->pc + 1;
		if (p->pass == 2)
			gc_import_opcode(p->im, l->pc, l->op, l->ol);
		else
			as_spool_opcode(p, l->pc, l->op, l->ol);
	}
	m.op = o->op;
	m.space = o->space;
	m.flags = o->flags;
	m.size = (uint16_t)size;
	m.ldgsts = o->ldgsts;
	/* The first line of an LDGSTS pair, dropped by inst_commit, still
	 * takes an issue cycle here. */
	m.cf = l->iv ? iv_issue(p, l, GC_IV_MEMORY, raw) : 0;
	inst_commit(p, &m, l, raw);
}

void as_inst_line(parser *p, char *s)
{
	kstate *c = &p->c;
	iline l; /* the register arrays are filled only with l.iv, up to nd, ns */
	l.t = s;
	l.block = c->block;
	l.warp = c->warp;
	l.sm = 0;
	l.iv = p->im->intervals && (p->pass == 2 || (p->sp.on && p->iv_early));
	if (c->layout == L_UNKNOWN)
		c->layout = L_RAW;
	int raw = c->layout == L_RAW;
	if (!raw) {
		if (!c->have_insts) {
			as_bad(p, "instruction line outside a warp section (no 'warp = N' and "
			       "'insts = N' lines before it)");
			return;
		}
		c->nlines++;
	}
	if ((raw || c->ver < 3) && !inst_where(p, &l, raw))
		return;
	if (!inst_fields(p, &l))
		return;
	if (l.mw == 0)
		inst_plain(p, &l, raw);
	else
		inst_memory(p, &l, raw);
}
