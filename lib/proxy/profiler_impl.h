/*
 * profiler_impl.h - what profiler.c and profiler_cluster.c share (nothing
 * else includes it): the prefix tree of the profiles and the clustering of
 * seed 002 §4.4 over its distinct profiles.
 */
#ifndef GC_PROFILER_IMPL_H
#define GC_PROFILER_IMPL_H

#include "proxy/profile.h"

#include <stddef.h>
#include <stdint.h>

/* A node of the prefix tree: the profile that ends at it is the path from
 * the root (node 0, the empty profile) down to it. */
typedef struct gc_pnode {
	uint32_t parent;
	uint32_t inst;  /* the last entry: instruction ... */
	uint32_t dseq;  /* ... and seq delta */
	uint32_t depth; /* entries: the profile's length */
} gc_pnode;

/* A distinct profile: the node it ends at, its threads and its first
 * thread in thread order. */
typedef struct gc_pcand {
	uint32_t node;
	uint64_t threads;
	uint64_t first;
} gc_pcand;

/* The entries of the profile ending at node (nodes[node].depth of them)
 * into e. */
void gc_ptree_entries(const gc_pnode *nodes, uint32_t node, gc_pentry *e);

/* Cluster the n distinct profiles c[] (the profiler.h rule): on return
 * cluster[i] is candidate i's cluster, numbered in the final order (most
 * threads first, ties by the first thread), rep[j] the candidate that
 * represents cluster j, and the number of clusters is returned; -1 when
 * out of memory.  cluster and rep hold n entries each. */
long gc_pcluster(const gc_pnode *nodes, const gc_pcand *c, size_t n, double similarity,
		 uint32_t max_profiles, uint32_t *cluster, uint32_t *rep);

#endif
