/*
 * intervals.c - the opcode class table and the per-warp issue tracker of
 * gc-import --intervals (intervals.h).
 *
 * The table lists the mnemonics of Accel-Sim's trace-driven opcode maps
 * (gpu-simulator/trace-driven/ISA_Def/{pascal,volta,turing}_opcode.h) by
 * the latency Accel-Sim's trace_config::set_latency gives their category:
 * SP_OP sp, DP_OP dp, SFU_OP sfu, INTP_OP and ALU_OP int (conversions,
 * moves, predicates, constant and texture loads, uniform-datapath
 * instructions included), the branch unit (SPECIALIZED_UNIT_1 and
 * Pascal's BRANCH_OP, CALL_OPS, RET_OPS) branch, and the tensor unit
 * (SPECIALIZED_UNIT_3) tensor.  Where we depart from the maps, gc-import(1)
 * says so: IMMA and BMMA (INTP_OP there) run on tensor cores here; EXIT,
 * BAR and MEMBAR (latency 1 there) take the branch class.
 */
#include "import/intervals.h"
#include "stream/format.h"

#include <string.h>

const char *const gc_iv_class_name[GC_IV_NCLASSES] = {"int", "sp", "dp", "sfu", "tensor",
						      "branch"};

/* Each class's mnemonics, space-separated, with a space at both ends. */
static const char *const table[GC_IV_NCLASSES] = {
	[GC_IV_INT] =
		/* INTP_OP */
		" BFE BFI BMSK BREV FLO IABS IADD IADD3 IADD32I ICMP IDP IDP4A IMAD IMADSP"
		" IMNMX IMUL IMUL32I ISCADD ISCADD32I ISET ISETP LEA LOP LOP3 LOP32I POPC"
		" SHF SHL SHR VABSDIFF VABSDIFF4 VMNMX XMAD"
		/* ALU_OP: conversions, moves, predicates, misc. */
		" F2F F2I FRND I2F I2I I2IP MOV MOV32I MOVM PRMT SEL SGXT SHFL"
		" CSET CSETP P2R PLOP3 PSET PSETP R2P"
		" CCTL CCTLL CCTLT ERRBAR LDC MATCH QSPC"
		" SUATOM SULD SURED SUST TEX TEXS TLD TLD4 TLD4S TLDS TMML TXD TXQ"
		" B2R CS2R CSMTEST DEPBAR GETLMEMBASE LEPC NOP PMTRIG R2B S2R SETCTAID"
		" SETLMEMBASE VOTE VOTE_VTG"
		/* the uniform datapath (SPECIALIZED_UNIT_4) */
		" R2UR S2UR UBMSK UBREV UCLEA UFLO UIADD3 UIMAD UISETP ULDC ULEA ULOP"
		" ULOP3 ULOP32I UMOV UP2UR UPLOP3 UPOPC UPRMT UPSETP UR2UP USEL USGXT"
		" USHF USHL USHR VOTEU ",
	[GC_IV_SP] = " FADD FADD32I FCHK FFMA FFMA32I FMNMX FMUL FMUL32I FSEL FSET FSETP"
		     " FSWZADD RRO HADD2 HADD2_32I HFMA2 HFMA2_32I HMUL2 HMUL2_32I HSET2"
		     " HSETP2 ",
	[GC_IV_DP] = " DADD DFMA DMNMX DMUL DSET DSETP ",
	[GC_IV_SFU] = " MUFU ",
	[GC_IV_TENSOR] = " BMMA HMMA IMMA ",
	[GC_IV_BRANCH] = " BMOV BPT BRA BREAK BRK BRX BRXU BSSY BSYNC CAL CALL CONT JCAL JMP"
			 " JMX JMXU KILL NANOSLEEP PBK PCNT PEXIT PRET RET RPCMOV RTT SSY"
			 " SYNC WARPSYNC YIELD EXIT BAR MEMBAR ",
};

int gc_iv_class(const char *opcode)
{
	size_t n = strcspn(opcode, ". \t");
	char key[40];
	if (n == 0 || n + 2 >= sizeof key)
		return GC_IV_UNKNOWN;
	key[0] = ' ';
	memcpy(key + 1, opcode, n);
	key[n + 1] = ' ';
	key[n + 2] = 0;
	for (int c = 0; c < GC_IV_NCLASSES; c++)
		if (strstr(table[c], key))
			return c;
	return GC_IV_UNKNOWN;
}

unsigned gc_iv_reg(const char *tok, size_t len)
{
	if (len < 2 || len > 4 || (tok[0] != 'R' && tok[0] != 'P'))
		return GC_IV_NONE;
	unsigned v = 0;
	for (size_t i = 1; i < len; i++) {
		if (tok[i] < '0' || tok[i] > '9')
			return GC_IV_NONE; /* PT, and anything that is not Rn or Pn */
		v = v * 10 + (unsigned)(tok[i] - '0');
	}
	if (tok[0] == 'R')
		return v < GC_IV_REGS - 1 ? v : GC_IV_NONE;      /* R255 is RZ */
	return v < 7 ? GC_IV_PRED0 + v : GC_IV_NONE;            /* P7 is PT */
}

/* a later than b, on a clock that wraps at 2^32. */
static inline int later(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

uint64_t gc_iv_step(gc_iv_warp *w, const gc_iv_lat *lat, int cls, const uint16_t *src,
		    int ns, const uint16_t *dst, int nd)
{
	int mem = cls == GC_IV_MEMORY;
	int unit = mem ? -1 : cls == GC_IV_UNKNOWN ? GC_IV_INT : cls;
	uint32_t t = w->next;
	int first = 0;
	if (unit >= 0 && later(w->free[unit], t))
		t = w->free[unit];
	for (int i = 0; i < ns; i++) {
		unsigned r = src[i];
		if (r >= GC_IV_NREGS)
			continue;
		if (later(w->ready[r], t))
			t = w->ready[r];
		uint64_t bit = UINT64_C(1) << (r & 63);
		if (w->loaded[r >> 6] & bit) {
			first = 1;
			w->loaded[r >> 6] &= ~bit;
		}
	}
	uint64_t cf = GC_CF_MAKE(w->insts, t, w->waits);
	w->waits += (uint32_t)first;
	w->next = t + 1;
	if (mem) {
		for (int i = 0; i < nd; i++) {
			unsigned r = dst[i];
			if (r >= GC_IV_NREGS)
				continue;
			w->ready[r] = t;
			w->loaded[r >> 6] |= UINT64_C(1) << (r & 63);
		}
		return cf;
	}
	w->insts++;
	w->free[unit] = t + lat->initiation[unit];
	for (int i = 0; i < nd; i++) {
		unsigned r = dst[i];
		if (r >= GC_IV_NREGS)
			continue;
		w->ready[r] = t + lat->latency[unit];
		w->loaded[r >> 6] &= ~(UINT64_C(1) << (r & 63));
	}
	return cf;
}
