/*
 * Stable ids and English labels of the fit model's enums, and their parsers,
 * for the CLI (`gpux fit --method qlora --zero 3 --optimizer adam8`) and the
 * panel. Ids are data: one table per enum; parsing is case-insensitive and
 * takes a few aliases people type (adamw, fsdp, 0-3). Labels are msgids.
 */
#include "fit/fit.h"
#include "fit/fit_int.h"
#include "util/util.h"

#include <stddef.h>
#include <strings.h>

struct id_row {
	const char *id;
	const char *label;
};

static const struct id_row methods[FIT_METHOD_COUNT] = {
	[FIT_FULL] = {"full", N_("Full training")},
	[FIT_LORA] = {"lora", N_("LoRA (16-bit base)")},
	[FIT_QLORA] = {"qlora", N_("QLoRA (4-bit base)")},
	[FIT_INFER_FP16] = {"infer-fp16", N_("Inference FP16")},
	[FIT_INFER_FP8] = {"infer-fp8", N_("Inference FP8")},
	[FIT_INFER_INT8] = {"infer-int8", N_("Inference INT8")},
	[FIT_INFER_INT4] = {"infer-int4", N_("Inference INT4")},
	[FIT_DIFFUSION] = {"diffusion", N_("Diffusion (image/video)")},
};

static const struct id_row shardings[FIT_SHARD_COUNT] = {
	[FIT_SHARD_NONE] = {"none", N_("None (each GPU holds everything)")},
	[FIT_SHARD_ZERO1] = {"zero1", N_("ZeRO-1 (optimizer states)")},
	[FIT_SHARD_ZERO2] = {"zero2", N_("ZeRO-2 (+ gradients)")},
	[FIT_SHARD_ZERO3] = {"zero3", N_("ZeRO-3 / FSDP (+ weights)")},
};

static const struct id_row optimizers[FIT_OPT_COUNT] = {
	[FIT_OPT_ADAM] = {"adam", N_("Adam (mixed precision)")},
	[FIT_OPT_ADAM8] = {"adam8", N_("8-bit Adam")},
	[FIT_OPT_SGD] = {"sgd", N_("SGD with momentum")},
};

struct alias {
	const char *name;
	int value;
};

static const struct alias sharding_aliases[] = {
	{"0", FIT_SHARD_NONE},      {"no", FIT_SHARD_NONE},       {"zero0", FIT_SHARD_NONE},
	{"zero-0", FIT_SHARD_NONE}, {"1", FIT_SHARD_ZERO1},       {"zero-1", FIT_SHARD_ZERO1},
	{"2", FIT_SHARD_ZERO2},     {"zero-2", FIT_SHARD_ZERO2},  {"3", FIT_SHARD_ZERO3},
	{"zero-3", FIT_SHARD_ZERO3}, {"fsdp", FIT_SHARD_ZERO3},
};

static const struct alias optimizer_aliases[] = {
	{"adamw", FIT_OPT_ADAM},       {"adam-8bit", FIT_OPT_ADAM8}, {"adam8bit", FIT_OPT_ADAM8},
	{"8bit-adam", FIT_OPT_ADAM8},  {"8bit", FIT_OPT_ADAM8},      {"adamw8", FIT_OPT_ADAM8},
	{"adamw-8bit", FIT_OPT_ADAM8},
};

static const struct alias method_aliases[] = {
	{"full-training", FIT_FULL}, {"train", FIT_FULL},        {"fp16", FIT_INFER_FP16},
	{"bf16", FIT_INFER_FP16},    {"infer-bf16", FIT_INFER_FP16}, {"fp8", FIT_INFER_FP8},
	{"int8", FIT_INFER_INT8},    {"int4", FIT_INFER_INT4},
};

static int lookup(const char *s, const struct id_row *rows, int n, const struct alias *al,
                  size_t nal, int *out)
{
	if (s == NULL)
		return -1;
	for (int i = 0; i < n; i++) {
		if (strcasecmp(s, rows[i].id) == 0) {
			*out = i;
			return 0;
		}
	}
	for (size_t i = 0; i < nal; i++) {
		if (strcasecmp(s, al[i].name) == 0) {
			*out = al[i].value;
			return 0;
		}
	}
	return -1;
}

const char *fit_method_id(enum fit_method m)
{
	return (unsigned)m < FIT_METHOD_COUNT ? methods[m].id : NULL;
}

const char *fit_method_label(enum fit_method m)
{
	return (unsigned)m < FIT_METHOD_COUNT ? methods[m].label : NULL;
}

int fit_method_parse(const char *s, enum fit_method *out, char **cause)
{
	int v;
	if (lookup(s, methods, FIT_METHOD_COUNT, method_aliases,
	           sizeof method_aliases / sizeof method_aliases[0], &v) < 0)
		return set_cause(cause, "%s", N_("unknown method: use full, lora, qlora, infer-fp16, "
		                                 "infer-fp8, infer-int8, infer-int4 or diffusion"));
	*out = (enum fit_method)v;
	return 0;
}

bool fit_method_is_training(enum fit_method m)
{
	return m == FIT_FULL || m == FIT_LORA || m == FIT_QLORA;
}

bool fit_method_is_inference(enum fit_method m)
{
	return m == FIT_INFER_FP16 || m == FIT_INFER_FP8 || m == FIT_INFER_INT8 ||
	       m == FIT_INFER_INT4;
}

const char *fit_sharding_id(enum fit_sharding s)
{
	return (unsigned)s < FIT_SHARD_COUNT ? shardings[s].id : NULL;
}

const char *fit_sharding_label(enum fit_sharding s)
{
	return (unsigned)s < FIT_SHARD_COUNT ? shardings[s].label : NULL;
}

int fit_sharding_parse(const char *s, enum fit_sharding *out, char **cause)
{
	int v;
	if (lookup(s, shardings, FIT_SHARD_COUNT, sharding_aliases,
	           sizeof sharding_aliases / sizeof sharding_aliases[0], &v) < 0)
		return set_cause(cause, "%s", N_("unknown sharding: use none, zero1, zero2, zero3 "
		                                 "(or 0 to 3, fsdp)"));
	*out = (enum fit_sharding)v;
	return 0;
}

const char *fit_optimizer_id(enum fit_optimizer o)
{
	return (unsigned)o < FIT_OPT_COUNT ? optimizers[o].id : NULL;
}

const char *fit_optimizer_label(enum fit_optimizer o)
{
	return (unsigned)o < FIT_OPT_COUNT ? optimizers[o].label : NULL;
}

int fit_optimizer_parse(const char *s, enum fit_optimizer *out, char **cause)
{
	int v;
	if (lookup(s, optimizers, FIT_OPT_COUNT, optimizer_aliases,
	           sizeof optimizer_aliases / sizeof optimizer_aliases[0], &v) < 0)
		return set_cause(cause, "%s", N_("unknown optimizer: use adam, adam8 or sgd"));
	*out = (enum fit_optimizer)v;
	return 0;
}

static const struct id_row accountings[FIT_ZACCT_COUNT] = {
	[FIT_ZACCT_DEEPSPEED] = {"deepspeed", N_("DeepSpeed's estimators")},
	[FIT_ZACCT_PAPER] = {"paper", N_("the ZeRO paper")},
};

static const struct id_row offloads[FIT_OFFLOAD_COUNT] = {
	[FIT_OFFLOAD_NONE] = {"none", N_("no offload")},
	[FIT_OFFLOAD_OPTIMIZER] = {"optimizer", N_("optimizer offloaded to the CPU")},
	[FIT_OFFLOAD_ALL] = {"all", N_("optimizer and weights offloaded to the CPU")},
};

static const struct alias offload_aliases[] = {
	{"no", FIT_OFFLOAD_NONE}, {"cpu", FIT_OFFLOAD_OPTIMIZER}, {"params", FIT_OFFLOAD_ALL},
};

const char *fit_accounting_id(enum fit_zero_accounting a)
{
	return (unsigned)a < FIT_ZACCT_COUNT ? accountings[a].id : NULL;
}

int fit_accounting_parse(const char *s, enum fit_zero_accounting *out, char **cause)
{
	int v;
	if (lookup(s, accountings, FIT_ZACCT_COUNT, NULL, 0, &v) < 0)
		return set_cause(cause, "%s", N_("unknown ZeRO accounting: use deepspeed or paper"));
	*out = (enum fit_zero_accounting)v;
	return 0;
}

const char *fit_offload_id(enum fit_offload o)
{
	return (unsigned)o < FIT_OFFLOAD_COUNT ? offloads[o].id : NULL;
}

const char *fit_offload_label(enum fit_offload o)
{
	return (unsigned)o < FIT_OFFLOAD_COUNT ? offloads[o].label : NULL;
}

int fit_offload_parse(const char *s, enum fit_offload *out, char **cause)
{
	int v;
	if (lookup(s, offloads, FIT_OFFLOAD_COUNT, offload_aliases,
	           sizeof offload_aliases / sizeof offload_aliases[0], &v) < 0)
		return set_cause(cause, "%s", N_("unknown offload: use none, optimizer or all"));
	*out = (enum fit_offload)v;
	return 0;
}

static const struct id_row interconnects[FIT_LINK_COUNT] = {
	[FIT_LINK_PCIE] = {"pcie", N_("PCIe")},
	[FIT_LINK_NVLINK] = {"nvlink", N_("NVLink")},
	[FIT_LINK_INFINITY_FABRIC] = {"infinity-fabric", N_("Infinity Fabric")},
};

static const struct alias interconnect_aliases[] = {
	{"nvl", FIT_LINK_NVLINK}, {"if", FIT_LINK_INFINITY_FABRIC}, {"xgmi", FIT_LINK_INFINITY_FABRIC},
};

const char *fit_interconnect_id(enum fit_interconnect i)
{
	return (unsigned)i < FIT_LINK_COUNT ? interconnects[i].id : NULL;
}

int fit_interconnect_parse(const char *s, enum fit_interconnect *out, char **cause)
{
	int v;
	if (lookup(s, interconnects, FIT_LINK_COUNT, interconnect_aliases,
	           sizeof interconnect_aliases / sizeof interconnect_aliases[0], &v) < 0)
		return set_cause(cause, "%s", N_("unknown interconnect: use nvlink, infinity-fabric or pcie"));
	*out = (enum fit_interconnect)v;
	return 0;
}

static const struct id_row stacks[FIT_STACK_COUNT] = {
	[FIT_STACK_NONE] = {"none", N_("gpux's defaults")},
	[FIT_STACK_UNSLOTH] = {"unsloth", N_("Unsloth")},
	[FIT_STACK_PEFT] = {"peft", N_("PEFT + bitsandbytes")},
};

const char *fit_stack_id(enum fit_stack s)
{
	return (unsigned)s < FIT_STACK_COUNT ? stacks[s].id : NULL;
}

const char *fit_stack_label(enum fit_stack s)
{
	return (unsigned)s < FIT_STACK_COUNT ? stacks[s].label : NULL;
}

int fit_stack_parse(const char *s, enum fit_stack *out, char **cause)
{
	int v;
	if (lookup(s, stacks, FIT_STACK_COUNT, NULL, 0, &v) < 0)
		return set_cause(cause, "%s", N_("unknown fine-tuning stack: use none, unsloth or peft"));
	*out = (enum fit_stack)v;
	return 0;
}
