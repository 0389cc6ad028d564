/* match_opt.c — optimal parsing for levels 13..22 (placeholder: lazy2 until the price-driven parser lands). */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"

int zs_opt_alloc(struct zs_cctx *c)
{
	(void)c;
	return 0;
}

void zs_opt_free(struct zs_cctx *c)
{
	(void)c;
}

void zs_parse_opt(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	zs_parse_lazy(c, src, start, end);
}
