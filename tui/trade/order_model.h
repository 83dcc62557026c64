/*
 * Internal to tui/ (the order form): the form as a pure model, no curses,
 * no exchange (tui/trade/order_model.c). The screen (tui/trade/order_form.c) copies
 * what is typed into it, starts the requests and hands it their replies;
 * the model says whether the inputs make an order (and why not, per
 * field), which price to suggest, what the exchange's preview and the book
 * mean, and makes every line the form shows as cells of a given width.
 *
 * Every change of what is typed or chosen makes a new generation of the
 * inputs (gen); a preview is current only for the generation it was asked
 * for. Strings the model returns are translated in m->lang (the TUI's
 * language, which _() follows) and owned by the model unless said.
 */
#ifndef GPUX_TUI_ORDER_MODEL_H
#define GPUX_TUI_ORDER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "data/catalog.h"
#include "i18n/i18n.h"
#include "tui/frame/lines.h"
#include "widgets/widgets.h"

/* The rows of the form, top to bottom: the order, then the machines (a
 * buy's requirements, a sell's lot). GPUs, hours, the price, the regions
 * and the host's figures are typed; the others are choices. Whole nodes is
 * a sell's only (the last row, not shown for a buy). */
enum order_row {
	ORDER_SIDE, ORDER_TYPE, ORDER_GPUS, ORDER_HOURS, ORDER_PRICE, ORDER_TIF,
	ORDER_NODES, ORDER_LINK, ORDER_REGIONS, ORDER_CPU, ORDER_RAM, ORDER_DISK, ORDER_WHOLE,
	ORDER_ROWS
};

enum {
	ORDER_NTEXT = 7,               /* the typed rows */
	ORDER_MAX_GPUS = 512,          /* docs/API.md, limits */
	ORDER_MAX_HOURS = 720,
	ORDER_MAX_PRICE = 1000000,
	ORDER_FORM_ROW0 = 3,           /* the line of the Side row in order_model_form_lines */
	ORDER_MAX_REGIONS = 64,
	ORDER_LINKS = 4,               /* the interconnect's choices: none, and three links */
};

/* A typed row's index among the texts (0 .. ORDER_NTEXT-1), or -1. */
static inline int order_text_index(int r)
{
	switch (r) {
	case ORDER_GPUS: return 0;
	case ORDER_HOURS: return 1;
	case ORDER_PRICE: return 2;
	case ORDER_REGIONS: return 3;
	case ORDER_CPU: return 4;
	case ORDER_RAM: return 5;
	case ORDER_DISK: return 6;
	default: return -1;
	}
}

/* The row of text index i. */
static inline int order_text_row(int i)
{
	static const int rows[ORDER_NTEXT] = { ORDER_GPUS, ORDER_HOURS, ORDER_PRICE, ORDER_REGIONS,
					       ORDER_CPU, ORDER_RAM, ORDER_DISK };
	return i >= 0 && i < ORDER_NTEXT ? rows[i] : -1;
}

static inline bool order_is_text_row(int r)
{
	return order_text_index(r) >= 0;
}

struct order_model {
	const struct catalog *cat;
	enum i18n_lang lang;
	bool ascii;
	char *gpu;                  /* catalogue id; NULL until set up */
	enum api_side side;
	enum api_order_type type;
	enum api_tif tif;           /* never API_TIF_DEFAULT */
	int focus;                  /* enum order_row */
	char *text[ORDER_NTEXT];       /* what is typed (never NULL) */
	char *text_error[ORDER_NTEXT]; /* the short reason beside a field, NULL if good */
	bool text_changed[ORDER_NTEXT]; /* the model wrote the text (a suggested price, a
	                                separator): the screen copies it, then clears this */
	bool price_touched;         /* the user typed the price: no more suggestions */
	int role;                   /* the account's enum api_role, -1 while unknown */
	int64_t opens_at;           /* the market's opening (Unix s), -1 unknown */
	bool have_exchange;         /* there is an exchange to send orders to */

	/* the machines: a buy's requirements, a sell's lot */
	int node_gpus;              /* 1, 2, 4, 8 (a buy: 1 is no requirement) */
	int link;                   /* index into links[] (0: not sent) */
	const char *links[ORDER_LINKS]; /* the choices this GPU has: NULL (a buy: any;
	                               a sell: the GPU's own), then wire names */
	int n_links;
	bool whole_nodes;           /* a sell */
	char **known_regions;       /* the exchange's region ids (GET /v1/market), or none */
	size_t n_known_regions;
	char **region_v;            /* the regions typed, parsed (req points into them) */
	size_t n_region_v;
	char *regions_text;         /* ... joined by commas (the book's query), or NULL */

	/* the inputs, read */
	uint64_t gen;               /* bumped by every change */
	bool valid;
	int bad_row;                /* the first field that does not parse, -1 */
	char *bad;                  /* why (a sentence) */
	struct api_order_req req;   /* when valid; req.gpu = gpu */

	/* the exchange's preview */
	struct api_preview *pv;
	uint64_t pv_gen;            /* the generation it answers */
	int64_t pv_ms;              /* when it came (monotonic ms) */
	char *pv_error;             /* the last preview request's failure, in words */
	bool pv_asking;             /* a preview is on its way */

	/* the book */
	struct api_book *book;
	char *book_error;

	/* the last order placed from this form, to ask before the same again */
	struct api_order_req last;
	char *last_gpu;
	char *last_lot;             /* its lot or requirements, as order_model_lot_key says */
	int64_t last_id;            /* -1: its outcome is unknown */

	char *note;                 /* the last action's outcome, under the fields */
	enum wrole note_role;
};

void order_model_init(struct order_model *m, const struct catalog *cat, enum i18n_lang lang, bool ascii);
void order_model_free(struct order_model *m);

/* Whether set-up for this would keep what is typed: the same GPU and side,
 * nothing prefilled. */
bool order_model_same_form(const struct order_model *m, const char *gpu, bool sell, int gpus, int hours);
/* Fill the form for gpu: buy or sell, market IOC, gpus × hours (<= 0: 1),
 * the suggested price; a new GPU forgets the book. ask: the best ask from
 * the quotes (-1 none), until the book is in. The focus is the screen's.
 * The machines start as none required (a sell: single-GPU machines). */
void order_model_setup(struct order_model *m, const char *gpu, bool sell, int gpus, int hours, int64_t ask);
/* What a fit job needs, after set-up: units of node_gpus GPUs inside one
 * machine on interconnect (a wire name; NULL: any), filled whole or not at
 * all (FOK) when that is more than one machine's worth. */
void order_model_need(struct order_model *m, int node_gpus, const char *interconnect);
/* The exchange's regions (GET /v1/market), what a typed region is checked
 * against (copied; none: not checked here). True if the list changed. */
bool order_model_set_regions(struct order_model *m, const struct api_region *v, size_t n);
/* Whether row shows for the side (Whole nodes is a sell's). */
bool order_model_row_shown(const struct order_model *m, int row);
/* The book to ask for the inputs: by node size (node_gpus, link, regions)
 * for a buy with requirements, else the plain book (*by false). The
 * strings point into the model. */
void order_model_book_query(const struct order_model *m, struct api_book_query *q, bool *by);
/* The lot or requirements of r as one string, to compare orders (malloc'ed). */
char *order_model_lot_key(const struct api_order_req *r);
/* Read the inputs again into req, valid, bad and the fields' reasons. */
void order_model_validate(struct order_model *m);
/* What is typed or chosen changed: read again, a new generation. */
void order_model_changed(struct order_model *m);
/* A text field now says text (typed): true when it differs. */
bool order_model_set_text(struct order_model *m, int row, const char *text);
/* Unless the user typed a price: the cap or limit a buyer would expect from
 * the book (or ask, the quotes' best ask): a market buy the best ask + 10 %
 * rounded up to 10 cents, a market sell the best bid − 10 %. */
void order_model_suggest_price(struct order_model *m, int64_t ask);

/* The account's role allows this side (an unknown role allows both). */
bool order_model_side_allowed(const struct order_model *m, enum api_side side);
/* Why a side is not allowed, a sentence (static). */
const char *order_model_role_note(const struct order_model *m);
/* The account's role is known (enum api_role): a side it does not allow is
 * switched, with a note. */
void order_model_set_role(struct order_model *m, int role, int64_t ask);
/* ← → Space or a letter (b/s, m/l, g/i/f) on a choice row: true when the
 * inputs changed. A side the account may not take leaves a note. */
bool order_model_choose(struct order_model *m, wkey k, int64_t ask);
/* The letters that choose on the focused choice row (h and l step). */
bool order_model_choice_key(const struct order_model *m, wkey k);

/* The book arrived (taken): true when it moved since the last one (the
 * preview should be asked again). The first book suggests the price when
 * none is typed (ask: the quotes' best ask, for a book without asks). */
bool order_model_set_book(struct order_model *m, struct api_book *b, int64_t ask);
void order_model_set_book_error(struct order_model *m, char *words);
/* A preview for generation gen (taken), or its failure (words, taken). */
void order_model_set_preview(struct order_model *m, struct api_preview *pv, uint64_t gen, int64_t now);
void order_model_set_preview_error(struct order_model *m, char *words);
/* Whether the preview on screen answers the inputs as they are. */
bool order_model_preview_current(const struct order_model *m);

/* The note under the fields (text copied; NULL clears it). */
void order_model_note(struct order_model *m, const char *text, enum wrole role);
/* The words for a refusal the preview announces, with its numbers (malloc'ed). */
char *order_model_reject_words(const struct order_model *m, const struct api_preview *p);
/* The inputs are those of the last order placed from this form. */
bool order_model_same_as_last(const struct order_model *m);
/* r (on gpu) was placed as order id (-1: its outcome is unknown). */
void order_model_remember_last(struct order_model *m, const struct api_order_req *r, const char *gpu,
		      int64_t id);
/* The confirmation's text of the current inputs and preview (malloc'ed). */
char *order_model_summary(const struct order_model *m);

/* The language changed: a typed price takes its decimal separator
 * ("4,19" ↔ "4.19", text_changed set), the inputs are read again. */
void order_model_set_lang(struct order_model *m, enum i18n_lang lang);
/* The labels' column: the widest label and two blanks. */
int order_model_label_width(const struct order_model *m);
/* The price row's label for side and type (translated, static). */
const char *order_model_price_label(const struct order_model *m);
/* Any row's label for the side (translated, static). */
const char *order_model_row_label(const struct order_model *m, int row);

/* The form's lines, width columns: the title, the best prices, the rows
 * (ORDER_FORM_ROW0 + enum order_row; the typed rows show only their label, the
 * screen's fields lie over them) and the note or what the focused row means. */
void order_model_form_lines(const struct order_model *m, int label_w, int width, struct tui_lines *out);
/* The preview's lines, width columns. */
void order_model_preview_lines(const struct order_model *m, int width, struct tui_lines *out);
/* The book's lines under the preview: at most rows of them. */
void order_model_book_lines(const struct order_model *m, int width, int rows, struct tui_lines *out);

#endif
