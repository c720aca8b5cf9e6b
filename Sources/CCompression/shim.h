#ifndef SKATEROUTE_CCOMPRESSION_H
#define SKATEROUTE_CCOMPRESSION_H
#include <zlib.h>
#include <bzlib.h>
#include <zstd.h>
#include <lz4.h>
#endif
