#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H
#include <zmq.h>
// epoll, for our own ZMTP transport (Swift's Glibc module leaves it out).
#include <sys/epoll.h>

// zmq.h defines these as expressions, which Swift does not import.
static const int czmq_ETERM = ETERM;
static const int czmq_EFSM = EFSM;
static const int czmq_ENOCOMPATPROTO = ENOCOMPATPROTO;
#endif
