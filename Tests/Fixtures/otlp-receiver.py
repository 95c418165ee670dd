#!/usr/bin/env python3
"""A small OTLP/HTTP trace receiver for the tests: it takes what
swift-otel exports (POST /v1/traces, application/x-protobuf, gzip or not),
decodes it with the opentelemetry-proto package, and writes one JSON line
per span to SPANS_FILE: service name, trace id, span id, parent span id,
span name. It listens on 127.0.0.1 at a port of the system's choosing and
writes that port to PORT_FILE once it is ready.

usage: otlp-receiver.py SPANS_FILE PORT_FILE
"""
import gzip
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

spans_path, port_path = sys.argv[1], sys.argv[2]


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.path != "/v1/traces":
            self.send_response(404)
            self.end_headers()
            return
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        with open(spans_path, "a") as out:
            for resource_spans in request.resource_spans:
                service = next((a.value.string_value for a in resource_spans.resource.attributes
                                if a.key == "service.name"), "")
                for scope in resource_spans.scope_spans:
                    for span in scope.spans:
                        out.write(json.dumps({"service": service, "trace": span.trace_id.hex(), "span": span.span_id.hex(),
                                              "parent": span.parent_span_id.hex(), "name": span.name}) + "\n")
        reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
with open(port_path + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
import os
os.rename(port_path + ".tmp", port_path)
server.serve_forever()
