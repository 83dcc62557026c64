/*
 * The machines a job needs. The market sells nodes of 1, 2, 4 or 8 GPUs,
 * each with the link its GPUs share (NVLink, Infinity Fabric or only PCIe);
 * a job that fits on N GPUs needs them in whole nodes: tensor parallelism
 * (inference) all-reduces twice per layer and per token, so its group must
 * sit inside one machine on the fastest link; pipeline stages and ZeRO's
 * data-parallel ranks may span machines.
 *
 * node_gpus is the largest of 8, 4, 2, 1 that divides the GPU count (24 →
 * 3 nodes of 8, 6 → 3 nodes of 2). The link is the GPU's scale-up link when
 * the node fits in its scale-up group (8 on HGX and OAM baseboards; 2 for
 * an NVLink-bridged PCIe card such as the H100 NVL), else PCIe: a PCIe
 * board is what it is. The same rule sets the all-reduce bandwidth of the
 * decode model (fit_tp_link_gbs).
 */
#include "fit/fit.h"
#include "fit/fit_int.h"

#include <math.h>
#include <string.h>

static int largest_node(int gpus)
{
	static const int sizes[] = {8, 4, 2};
	for (int i = 0; i < 3; i++)
		if (gpus >= sizes[i] && gpus % sizes[i] == 0)
			return sizes[i];
	return 1;
}

/* Does a group of n GPUs of this board share its scale-up link? */
static bool in_scale_up(const struct fit_gpu *gpu, int n)
{
	if (n <= 1)
		return true;
	if (gpu->scale_up == FIT_LINK_PCIE)
		return false;
	return gpu->scale_up_gpus <= 0 || gpu->scale_up_gpus >= n;
}

double fit_tp_link_gbs(const struct fit_gpu *gpu, int tp)
{
	if (in_scale_up(gpu, tp))
		return gpu->link_gbs;
	if (isfinite(gpu->pcie_gbs) && gpu->pcie_gbs > 0)
		return gpu->pcie_gbs;
	/* a PCIe board's link_gbs is its slot already */
	return gpu->scale_up == FIT_LINK_PCIE ? gpu->link_gbs : NAN;
}

int fit_expert_parallel(const struct fit_model *m, int node_gpus)
{
	static const int degrees[] = {8, 4, 2};
	if (m->experts <= 1)
		return 1;
	for (int i = 0; i < 3; i++)
		if (degrees[i] <= node_gpus && m->experts % degrees[i] == 0)
			return degrees[i];
	return 1;
}

void fit_node_shape(const struct fit_job *job, const struct fit_gpu *gpu, int gpus,
                    struct fit_node_shape *out)
{
	int n = fit_clamp_int(gpus, 1, FIT_MAX_GPUS);
	memset(out, 0, sizeof *out);
	out->gpus = n;
	out->node_gpus = largest_node(n);
	out->nodes = n / out->node_gpus;
	out->tp = 1;
	out->pp = 1;
	out->dp = 1;
	if (fit_method_is_inference(job->method)) {
		struct fit_arch a;
		fit_resolve(&job->model, &a);
		out->tp = fit_tp_degree((int)a.heads, n);
		out->pp = n / out->tp;
	} else if (fit_method_is_training(job->method)) {
		out->dp = n;
	}
	out->ep = fit_expert_parallel(&job->model, out->node_gpus);
	out->experts_per_gpu = job->model.experts > 0 ? job->model.experts / out->ep : 0;
	out->link_needed = out->node_gpus > 1;
	out->interconnect = out->link_needed && in_scale_up(gpu, out->node_gpus) ? gpu->scale_up
	                                                                          : FIT_LINK_PCIE;
}
