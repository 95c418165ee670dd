#ifndef CZSTD_SHIM_H
#define CZSTD_SHIM_H
// zstd compresses each search document's text with a dictionary trained on
// the index's first documents (zdict.h trains it).
#include <zstd.h>
#include <zdict.h>
#endif
