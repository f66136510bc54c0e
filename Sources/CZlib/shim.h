// zlib, for decoding gzip and deflate bodies a recorded upstream sends (engine only).
#include <zlib.h>
