// A NATS responder for the side by side with our echo-worker: CONNECTIONS
// connections, each in queue group QUEUE on SUBJECT, answering every
// request with its own body, until SIGTERM or SIGINT.
//
//   natsecho URL SUBJECT QUEUE CONNECTIONS [CA_FILE]
//
//   gcc -O2 -o natsecho natsecho.c -lnats
#include <nats/nats.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void answer(natsConnection *connection, natsSubscription *subscription, natsMsg *message, void *closure) {
    (void)subscription;
    (void)closure;
    const char *reply = natsMsg_GetReply(message);
    if (reply != NULL) natsConnection_Publish(connection, reply, natsMsg_GetData(message), natsMsg_GetDataLength(message));
    natsMsg_Destroy(message);
}

static void check(natsStatus status, const char *what) {
    if (status != NATS_OK) {
        fprintf(stderr, "natsecho: %s: %s\n", what, natsStatus_GetText(status));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: natsecho URL SUBJECT QUEUE CONNECTIONS [CA_FILE]\n");
        return 64;
    }
    int count = atoi(argv[4]);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    // Blocked before libnats starts its threads, so sigwait below takes them.
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    natsOptions *options = NULL;
    check(natsOptions_Create(&options), "options");
    check(natsOptions_SetURL(options, argv[1]), "url");
    // NATSECHO_ASAP=0: gather replies for libnats's flusher instead of
    // writing each at once.
    const char *asap = getenv("NATSECHO_ASAP");
    check(natsOptions_SetSendAsap(options, asap == NULL || asap[0] != '0'), "send asap");
    if (argc > 5) {
        check(natsOptions_SetSecure(options, true), "tls");
        check(natsOptions_LoadCATrustedCertificates(options, argv[5]), "the CA file");
    }
    natsConnection **connections = calloc(count, sizeof *connections);
    natsSubscription **subscriptions = calloc(count, sizeof *subscriptions);
    for (int i = 0; i < count; i++) {
        check(natsConnection_Connect(&connections[i], options), "connect");
        check(natsConnection_QueueSubscribe(&subscriptions[i], connections[i], argv[2], argv[3], answer, NULL), "subscribe");
        check(natsSubscription_SetPendingLimits(subscriptions[i], -1, -1), "pending limits");
        check(natsConnection_Flush(connections[i]), "flush");
    }
    printf("ready connections=%d\n", count);
    fflush(stdout);
    int signal;
    sigwait(&stop, &signal);
    for (int i = 0; i < count; i++) {
        natsSubscription_Destroy(subscriptions[i]);
        natsConnection_Destroy(connections[i]);
    }
    natsOptions_Destroy(options);
    return 0;
}
