#!/usr/bin/env python3
"""A third-party client (pyzmq) on a gateway that uses CURVE: lists posts.

    python3 docs/examples/curve_client.py tcp://gateway-host:5555 \
        /etc/posts/keys/gateway.key ~/.config/posts/cli-me.key_secret

The key files are the ones `posts keys generate` writes, in the format
pyzmq's zmq.auth reads. This client's public key (its NAME.key) must be in
the gateway's allow-list directory. Prints the newest titles, one per line;
exits 1 with a message when no answer comes within 5 s (a refused key, or
no gateway).
"""
import json
import sys
import uuid

import zmq
import zmq.auth

endpoint, gateway_key_file, secret_key_file = sys.argv[1:4]
server_public, _ = zmq.auth.load_certificate(gateway_key_file)
public, secret = zmq.auth.load_certificate(secret_key_file)

socket = zmq.Context.instance().socket(zmq.DEALER)
socket.curve_serverkey = server_public
socket.curve_publickey = public
socket.curve_secretkey = secret
socket.linger = 0
socket.connect(endpoint)

request = {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": "posts.list", "params": {"limit": 5}}
socket.send_multipart([b"", b"MDPC01", b"posts", json.dumps(request).encode()])
if not socket.poll(5000):
    sys.exit(f"no answer from {endpoint} within 5 s: is this key on the gateway's allow-list?")
_empty, _header, _service, body = socket.recv_multipart()
reply = json.loads(body)
if "error" in reply:
    sys.exit(f"error {reply['error']['code']}: {reply['error']['message']}")
for post in reply["result"]["posts"]:
    print(post["title"])
