#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H
// libsodium: the primitives CURVE (RFC 26) is made of, the ones libzmq
// uses for it too (Curve25519, XSalsa20-Poly1305 boxes).
#include <sodium.h>
#endif
