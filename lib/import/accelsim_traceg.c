/*
 * accelsim_traceg.c - the structure of a post-processed .traceg kernel:
 * #BEGIN_TB ... #END_TB thread blocks, their 'thread block = x,y,z' line,
 * and the 'warp = N' / 'insts = N' sections whose lines are counted
 * against insts.
 */
#include "import/accelsim_impl.h"

#include <string.h>

/* ---- .traceg structure -------------------------------------------------- */

static int set_layout(parser *p, int layout, const char *what)
{
	kstate *c = &p->c;
	if (c->layout == L_UNKNOWN)
		c->layout = layout;
	if (c->layout == layout)
		return 1;
	if (layout == L_TRACEG)
		as_bad(p, "'%s' in a raw trace (instruction lines came before it)", what);
	return 0;
}

void as_marker(parser *p, char *s)
{
	kstate *c = &p->c;
	rtrim(s);
	if (strcmp(s, "#BEGIN_TB") == 0) {
		if (!set_layout(p, L_TRACEG, "#BEGIN_TB"))
			return;
		as_close_warp(p);
		if (c->in_tb)
			as_bad(p, "#BEGIN_TB inside thread block (%u,%u,%u) (no #END_TB before it)",
			       c->bx, c->by, c->bz);
		c->in_tb = 1;
		c->have_tb = 0;
	} else if (strcmp(s, "#END_TB") == 0) {
		if (!set_layout(p, L_TRACEG, "#END_TB"))
			return;
		as_close_warp(p);
		if (!c->in_tb)
			as_bad(p, "#END_TB without #BEGIN_TB");
		c->in_tb = c->have_tb = 0;
	}
	/* Any other # line is a comment ("#traces format = ..."). */
}

/* "word = value" with the word already matched: the value's text. */
static char *after_eq(char *s, size_t wl)
{
	s = skipsp(s + wl);
	if (*s != '=')
		return NULL;
	return skipsp(s + 1);
}

void as_tb_line(parser *p, char *s)
{
	kstate *c = &p->c;
	if (!set_layout(p, L_TRACEG, "thread block"))
		return;
	char *v = after_eq(s, 12);
	uint64_t t[3];
	int i;
	for (i = 0; v && i < 3; i++) {
		char *b = v;
		uint64_t x = 0;
		while (*v >= '0' && *v <= '9' && x < UINT64_C(1) << 40)
			x = x * 10 + (uint64_t)(*v++ - '0');
		if (v == b || (*v >= '0' && *v <= '9'))
			break;
		t[i] = x;
		v = skipsp(v);
		if (i < 2 && *v++ != ',')
			break;
		v = skipsp(v);
	}
	if (i < 3 || *v) {
		rtrim(s);
		as_bad(p, "bad thread block line '%s' (expected 'thread block = x,y,z')", s);
		return;
	}
	if (!c->in_tb) {
		as_bad(p, "'thread block' line outside #BEGIN_TB ... #END_TB");
		return;
	}
	if (c->have_tb) {
		as_bad(p, "second 'thread block' line in one #BEGIN_TB section");
		return;
	}
	if (t[0] >= c->k.grid[0] || t[1] >= c->k.grid[1] || t[2] >= c->k.grid[2]) {
		as_bad(p, "thread block (%llu,%llu,%llu) is outside the grid (%u,%u,%u)",
		       (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
		       c->k.grid[0], c->k.grid[1], c->k.grid[2]);
		return;
	}
	c->bx = (uint32_t)t[0], c->by = (uint32_t)t[1], c->bz = (uint32_t)t[2];
	c->block = (uint32_t)((t[2] * c->k.grid[1] + t[1]) * c->k.grid[0] + t[0]);
	c->have_tb = 1;
}

void as_warp_line(parser *p, char *s, int insts)
{
	kstate *c = &p->c;
	const char *what = insts ? "insts" : "warp";
	if (!set_layout(p, L_TRACEG, what))
		return;
	char *v = after_eq(s, insts ? 5 : 4);
	uint64_t x;
	if (!v || !tok_u(&v, &x) || *v) {
		rtrim(s);
		as_bad(p, "bad %s line '%s' (expected '%s = N')", what, s, what);
		return;
	}
	if (!insts) {
		as_close_warp(p);
		if (!c->have_tb) {
			as_bad(p, "'warp' line before the block's 'thread block' line");
			return;
		}
		if (x >= c->wpb) {
			as_bad(p, "warp %llu is outside the block (%u threads, %u warps)",
			       (unsigned long long)x,
			       (unsigned)(c->k.block[0] * c->k.block[1] * c->k.block[2]), c->wpb);
			return;
		}
		c->warp = (uint32_t)x;
		c->have_warp = 1;
		c->have_insts = 0;
		c->seq = 0;
		c->nlines = 0;
		memset(&p->ivw, 0, sizeof p->ivw); /* --intervals: a new warp */
	} else {
		if (!c->have_warp || c->have_insts) {
			as_bad(p, "'insts' line without a 'warp' line before it");
			return;
		}
		c->decl = x;
		c->have_insts = 1;
	}
}
