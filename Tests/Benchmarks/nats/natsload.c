// The NATS twin of loadc (../shared/bench/loadc.c): the same requests, the
// same window, the same output, on libnats (Debian's libnats-dev).
//
//   natsload URL SUBJECT N WINDOW BODYSIZE [CA_FILE]
//
// Sends N requests of BODYSIZE bytes to SUBJECT, at most WINDOW unanswered
// at once, each with the client's inbox as its reply subject. WINDOW 1
// times each round trip and prints p50/p99; a larger window prints the
// requests per second. CA_FILE: connect with TLS, trusting that
// certificate. Exit 2 when a reply does not come within 10 s.
//
//   gcc -O2 -o natsload natsload.c -lnats
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void check(natsStatus status, const char *what) {
    if (status != NATS_OK) {
        fprintf(stderr, "natsload: %s: %s\n", what, natsStatus_GetText(status));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: natsload URL SUBJECT N WINDOW BODYSIZE [CA_FILE]\n");
        return 64;
    }
    const char *url = argv[1], *subject = argv[2];
    long n = atol(argv[3]);
    int window = atoi(argv[4]), size = atoi(argv[5]);
    natsOptions *options = NULL;
    check(natsOptions_Create(&options), "options");
    check(natsOptions_SetURL(options, url), "url");
    // One at a time, each request leaves at once; in a window, writes are
    // gathered (libnats's flusher), as a pipelining client wants.
    if (window == 1) check(natsOptions_SetSendAsap(options, true), "send asap");
    if (argc > 6) {
        check(natsOptions_SetSecure(options, true), "tls");
        check(natsOptions_LoadCATrustedCertificates(options, argv[6]), "the CA file");
    }
    natsConnection *connection = NULL;
    check(natsConnection_Connect(&connection, options), "connect");
    char inbox[64];
    natsInbox *generated = NULL;
    check(natsInbox_Create(&generated), "inbox");
    snprintf(inbox, sizeof inbox, "%s", (const char *)generated);
    natsInbox_Destroy(generated);
    natsSubscription *replies = NULL;
    check(natsConnection_SubscribeSync(&replies, connection, inbox), "subscribe");
    check(natsSubscription_SetPendingLimits(replies, -1, -1), "pending limits");
    check(natsConnection_Flush(connection), "flush");

    char *body = malloc(size > 0 ? size : 1);
    memset(body, 'x', size);
    double *latencies = window == 1 ? malloc(sizeof(double) * n) : NULL;
    long sent = 0, got = 0;
    double start = now(), began = 0;
    while (got < n) {
        while (sent < n && sent - got < window) {
            if (window == 1) began = now();
            check(natsConnection_PublishRequest(connection, subject, inbox, body, size), "publish");
            sent++;
        }
        natsMsg *reply = NULL;
        if (natsSubscription_NextMsg(&reply, replies, 10000) != NATS_OK) {
            fprintf(stderr, "timeout after %ld replies\n", got);
            return 2;
        }
        natsMsg_Destroy(reply);
        if (window == 1) latencies[got] = now() - began;
        got++;
    }
    double elapsed = now() - start;
    if (window == 1) {
        qsort(latencies, n, sizeof(double), ascending);
        printf("seq n=%ld p50_us=%.1f p99_us=%.1f\n", n, latencies[n / 2] * 1e6, latencies[(long)(n * 0.99)] * 1e6);
    } else {
        printf("pipelined n=%ld window=%d rps=%.0f secs=%.2f short_replies=0\n", n, window, n / elapsed, elapsed);
    }
    natsSubscription_Destroy(replies);
    natsConnection_Destroy(connection);
    natsOptions_Destroy(options);
    return 0;
}
