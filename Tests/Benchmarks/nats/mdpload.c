// Our side of the side by side with NATS: a 7/MDP client (MDPC01) on
// libzmq that asks the way natsload asks NATS, with the same output.
//
//   mdpload ENDPOINT SERVICE N WINDOW BODYSIZE
//
// Sends N requests of BODYSIZE bytes to SERVICE through the broker at
// ENDPOINT, at most WINDOW unanswered at once. WINDOW 1 times each round
// trip and prints p50/p99; a larger window prints the requests per second.
// With MDPLOAD_CURVE_SECRET (this client's secret key) and
// MDPLOAD_CURVE_SERVER (the broker's public key), both Z85, it speaks
// CURVE. Exit 2 when a reply does not come within 10 s.
//
//   gcc -O2 -o mdpload mdpload.c -lzmq
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "load.h"

static void check(int result, const char *what) {
    if (result != 0) {
        fprintf(stderr, "mdpload: %s: %s\n", what, zmq_strerror(zmq_errno()));
        exit(1);
    }
}

// One DEALER on the broker, asking SERVICE.
struct mdp {
    void *socket;
    const char *service;
    const char *body;
    int size;
};

static void mdp_send(void *state) {
    struct mdp *mdp = state;
    zmq_send(mdp->socket, "", 0, ZMQ_SNDMORE);
    zmq_send(mdp->socket, "MDPC01", 6, ZMQ_SNDMORE);
    zmq_send(mdp->socket, mdp->service, strlen(mdp->service), ZMQ_SNDMORE);
    zmq_send(mdp->socket, mdp->body, mdp->size, 0);
}

// A reply: empty, MDPC01, the service, the body (a refusal is shorter).
static enum load_reply mdp_receive(void *state) {
    struct mdp *mdp = state;
    zmq_msg_t frame;
    int more = 1, frames = 0;
    while (more) {
        zmq_msg_init(&frame);
        if (zmq_msg_recv(&frame, mdp->socket, 0) < 0) return LOAD_TIMEOUT;
        more = zmq_msg_more(&frame);
        frames++;
        zmq_msg_close(&frame);
    }
    return frames < 4 ? LOAD_SHORT : LOAD_FULL;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: mdpload ENDPOINT SERVICE N WINDOW BODYSIZE\n");
        return 64;
    }
    const char *endpoint = argv[1], *service = argv[2];
    long n = atol(argv[3]);
    int window = atoi(argv[4]), size = atoi(argv[5]);
    void *context = zmq_ctx_new();
    void *socket = zmq_socket(context, ZMQ_DEALER);
    int zero = 0, high = 100000, wait = 10000;
    check(zmq_setsockopt(socket, ZMQ_LINGER, &zero, sizeof zero), "linger");
    check(zmq_setsockopt(socket, ZMQ_SNDHWM, &high, sizeof high), "send limit");
    check(zmq_setsockopt(socket, ZMQ_RCVHWM, &high, sizeof high), "receive limit");
    check(zmq_setsockopt(socket, ZMQ_RCVTIMEO, &wait, sizeof wait), "receive timeout");
    const char *secret = getenv("MDPLOAD_CURVE_SECRET"), *server = getenv("MDPLOAD_CURVE_SERVER");
    if (secret != NULL && server != NULL) {
        char public[41];
        check(zmq_curve_public(public, secret), "the public key of MDPLOAD_CURVE_SECRET");
        check(zmq_setsockopt(socket, ZMQ_CURVE_SERVERKEY, server, 40), "MDPLOAD_CURVE_SERVER");
        check(zmq_setsockopt(socket, ZMQ_CURVE_PUBLICKEY, public, 40), "public key");
        check(zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, secret, 40), "MDPLOAD_CURVE_SECRET");
    }
    check(zmq_connect(socket, endpoint), "connect");

    char *body = malloc(size > 0 ? size : 1);
    memset(body, 'x', size);
    struct mdp mdp = {socket, service, body, size};
    int status = load_run(n, window, (struct load_client){mdp_send, mdp_receive, &mdp});
    zmq_close(socket);
    zmq_ctx_term(context);
    return status;
}
