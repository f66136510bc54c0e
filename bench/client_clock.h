/* What bench/delay_client.c and bench/stream_client.c share: a monotonic clock in seconds and a
 * comparison for qsort over doubles (percentiles). */
#ifndef STUBD_BENCH_CLIENT_CLOCK_H
#define STUBD_BENCH_CLIENT_CLOCK_H
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
#endif
