// What mdpload and natsload share, so the two sides of the side by side
// ask and count the same way: a window of requests, the clock, and the
// report (loadc's output: p50/p99 one at a time, requests per second in a
// window).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// A reply: whole, short (a broker's refusal), or none within 10 s.
enum load_reply { LOAD_FULL, LOAD_SHORT, LOAD_TIMEOUT };

// A client's two moves over its own connection (`state`).
struct load_client {
    void (*send)(void *state);
    enum load_reply (*receive)(void *state);
    void *state;
};

static double load_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int load_ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Sends n requests, at most `window` unanswered at once, and prints the
// report. Returns the exit status: 0, or 2 when a reply did not come.
static int load_run(long n, int window, struct load_client client) {
    double *latencies = window == 1 ? malloc(sizeof(double) * n) : NULL;
    long sent = 0, got = 0, short_replies = 0;
    double start = load_now(), began = 0;
    while (got < n) {
        while (sent < n && sent - got < window) {
            if (window == 1) began = load_now();
            client.send(client.state);
            sent++;
        }
        switch (client.receive(client.state)) {
        case LOAD_TIMEOUT: fprintf(stderr, "timeout after %ld replies\n", got); return 2;
        case LOAD_SHORT: short_replies++; break;
        case LOAD_FULL: break;
        }
        if (window == 1) latencies[got] = load_now() - began;
        got++;
    }
    double elapsed = load_now() - start;
    if (window == 1) {
        qsort(latencies, n, sizeof(double), load_ascending);
        printf("seq n=%ld p50_us=%.1f p99_us=%.1f\n", n, latencies[n / 2] * 1e6, latencies[(long)(n * 0.99)] * 1e6);
    } else {
        printf("pipelined n=%ld window=%d rps=%.0f secs=%.2f short_replies=%ld\n", n, window, n / elapsed, elapsed, short_replies);
    }
    free(latencies);
    return 0;
}
