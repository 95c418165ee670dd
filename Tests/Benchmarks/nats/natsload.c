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

#include "load.h"

static void check(natsStatus status, const char *what) {
    if (status != NATS_OK) {
        fprintf(stderr, "natsload: %s: %s\n", what, natsStatus_GetText(status));
        exit(1);
    }
}

// One connection, asking SUBJECT with its inbox as the reply subject.
struct nats {
    natsConnection *connection;
    natsSubscription *replies;
    const char *subject;
    const char *inbox;
    const char *body;
    int size;
};

static void nats_send(void *state) {
    struct nats *nats = state;
    check(natsConnection_PublishRequest(nats->connection, nats->subject, nats->inbox, nats->body, nats->size), "publish");
}

static enum load_reply nats_receive(void *state) {
    struct nats *nats = state;
    natsMsg *reply = NULL;
    if (natsSubscription_NextMsg(&reply, nats->replies, 10000) != NATS_OK) return LOAD_TIMEOUT;
    natsMsg_Destroy(reply);
    return LOAD_FULL;
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
    struct nats nats = {connection, replies, subject, inbox, body, size};
    int status = load_run(n, window, (struct load_client){nats_send, nats_receive, &nats});
    natsSubscription_Destroy(replies);
    natsConnection_Destroy(connection);
    natsOptions_Destroy(options);
    return status;
}
