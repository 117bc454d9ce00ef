/*
 * profiler_cluster.c - the clustering of seed 002 §4.4 over the distinct
 * profiles of a kernel (profiler.h states the rule; profiler_impl.h the
 * interface).
 *
 * Distinct profiles are taken most threads first (ties: the first thread
 * first); each joins the first cluster, in the order the clusters were
 * started, whose representative (the profile that started it) is similar
 * enough, else starts a cluster.  Similarity of a and b: the positions i
 * below both lengths where a[i].inst == b[i].inst, over the longer
 * length; since it is at most the shorter length over the longer, a pair
 * whose lengths differ too much is not compared entry by entry.
 */
#include "proxy/profiler_impl.h"

#include <stdlib.h>
#include <string.h>

void gc_ptree_entries(const gc_pnode *nodes, uint32_t node, gc_pentry *e)
{
	while (node) {
		const gc_pnode *n = &nodes[node];
		e[n->depth - 1].inst = n->inst;
		e[n->depth - 1].dseq = n->dseq;
		node = n->parent;
	}
}

struct cluster {
	uint32_t rep;     /* candidate */
	uint32_t len;
	size_t at;        /* its entries in the pool */
	uint64_t threads;
	uint64_t first;   /* the first thread of its members */
	uint32_t into;    /* the cluster it joined past max_profiles, else itself */
	uint32_t final;   /* its number in the output */
};

struct ctx {
	const gc_pnode *nodes;
	const gc_pcand *c;
	struct cluster *cl;
	gc_pentry *pool;
	size_t npool, cpool;
};

static double similarity(const gc_pentry *a, uint32_t la, const gc_pentry *b, uint32_t lb)
{
	uint32_t lo = la < lb ? la : lb, hi = la < lb ? lb : la;
	if (hi == 0)
		return 1.0;
	uint32_t same = 0;
	for (uint32_t i = 0; i < lo; i++)
		same += a[i].inst == b[i].inst;
	return (double)same / (double)hi;
}

/* A similarity of at least th is possible between lengths la and lb. */
static int may_reach(uint32_t la, uint32_t lb, double th)
{
	uint32_t lo = la < lb ? la : lb, hi = la < lb ? lb : la;
	return hi == 0 || (double)lo / (double)hi >= th;
}

/* A sort key: most threads first, ties by the first thread. */
struct key {
	uint64_t threads, first;
	uint32_t i;
};

static int key_order(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	if (a->threads != b->threads)
		return a->threads > b->threads ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/* Room for len more entries in the pool; -1 out of memory. */
static int pool_reserve(struct ctx *x, size_t len)
{
	if (x->npool + len <= x->cpool)
		return 0;
	size_t cap = x->cpool ? x->cpool : 1024;
	while (cap < x->npool + len)
		cap *= 2;
	gc_pentry *p = realloc(x->pool, cap * sizeof *p);
	if (!p)
		return -1;
	x->pool = p;
	x->cpool = cap;
	return 0;
}

/* Sort the clusters idx[0..n) by threads and first thread (k: scratch). */
static void sort_clusters(const struct cluster *cl, uint32_t *idx, struct key *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		k[i] = (struct key){cl[idx[i]].threads, cl[idx[i]].first, idx[i]};
	qsort(k, n, sizeof *k, key_order);
	for (size_t i = 0; i < n; i++)
		idx[i] = k[i].i;
}

long gc_pcluster(const gc_pnode *nodes, const gc_pcand *c, size_t n, double th,
		 uint32_t max_profiles, uint32_t *cluster, uint32_t *rep)
{
	struct ctx x = {nodes, c, NULL, NULL, 0, 0};
	struct key *order = malloc((n ? n : 1) * sizeof *order);
	uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
	uint32_t *of = malloc((n ? n : 1) * sizeof *of); /* candidate -> cluster */
	x.cl = malloc((n ? n : 1) * sizeof *x.cl);
	long ret = -1;
	if (!order || !idx || !of || !x.cl)
		goto out;
	for (size_t i = 0; i < n; i++)
		order[i] = (struct key){c[i].threads, c[i].first, (uint32_t)i};
	qsort(order, n, sizeof *order, key_order);

	/* Greedy: most threads first, each into the first similar cluster. */
	size_t ncl = 0;
	for (size_t i = 0; i < n; i++) {
		const gc_pcand *p = &c[order[i].i];
		uint32_t len = nodes[p->node].depth;
		if (pool_reserve(&x, len) < 0)
			goto out;
		gc_pentry *e = x.pool + x.npool; /* scratch at the pool's end */
		gc_ptree_entries(nodes, p->node, e);
		size_t j;
		for (j = 0; j < ncl; j++) {
			struct cluster *k = &x.cl[j];
			if (may_reach(len, k->len, th) &&
			    similarity(e, len, x.pool + k->at, k->len) >= th)
				break;
		}
		if (j == ncl) {
			x.cl[ncl++] = (struct cluster){order[i].i, len, x.npool, 0, p->first, 0, 0};
			x.cl[j].into = (uint32_t)j;
			x.npool += len;
		}
		x.cl[j].threads += p->threads;
		if (p->first < x.cl[j].first)
			x.cl[j].first = p->first;
		of[order[i].i] = (uint32_t)j;
	}

	/* Past max_profiles: the smallest clusters join the most similar of
	 * the largest (ties: the larger). */
	for (size_t j = 0; j < ncl; j++)
		idx[j] = (uint32_t)j;
	sort_clusters(x.cl, idx, order, ncl);
	size_t keep = ncl < max_profiles ? ncl : max_profiles;
	for (size_t s = keep; s < ncl; s++) {
		struct cluster *k = &x.cl[idx[s]];
		size_t best = 0;
		double bsim = -1.0;
		for (size_t t = 0; t < keep; t++) {
			const struct cluster *m = &x.cl[idx[t]];
			double sim = similarity(x.pool + k->at, k->len, x.pool + m->at, m->len);
			if (sim > bsim) {
				bsim = sim;
				best = t;
			}
		}
		k->into = idx[best];
	}
	for (size_t s = keep; s < ncl; s++) {
		const struct cluster *k = &x.cl[idx[s]];
		struct cluster *m = &x.cl[k->into];
		m->threads += k->threads;
		if (k->first < m->first)
			m->first = k->first;
	}
	sort_clusters(x.cl, idx, order, keep);
	for (size_t t = 0; t < keep; t++) {
		x.cl[idx[t]].final = (uint32_t)t;
		rep[t] = x.cl[idx[t]].rep;
	}
	for (size_t i = 0; i < n; i++)
		cluster[i] = x.cl[x.cl[of[i]].into].final;
	ret = (long)keep;
out:
	free(order);
	free(idx);
	free(of);
	free(x.cl);
	free(x.pool);
	return ret;
}
