#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H
#include <zmq.h>
// epoll, for our own ZMTP transport (Swift's Glibc module leaves it out).
#include <sys/epoll.h>
#include <sys/socket.h>

// accept4(2), which Swift's Glibc module does not declare either (it is a
// GNU extension): a new connection non-blocking and close-on-exec at once.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int czmq_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// zmq.h defines these as expressions, which Swift does not import.
static const int czmq_ETERM = ETERM;
static const int czmq_EFSM = EFSM;
static const int czmq_ENOCOMPATPROTO = ENOCOMPATPROTO;
#endif
