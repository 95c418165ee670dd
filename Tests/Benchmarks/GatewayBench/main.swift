import Foundation

// A synchronous entry point, so that `gateway-bench broker ENDPOINT` can run
// the broker with the main thread blocked in a plain wait. An async main ends
// in Dispatch's main loop (rt_sigsuspend), which valgrind 3.19 cannot run;
// this way the gateway's broker can be counted by callgrind like the
// reference broker (docs/BENCHMARKS.md). The measuring runs on the main
// thread too: it waits for processes and sockets, which must never hold
// one of Swift's cooperative threads (docs/ARCHITECTURE.md, "Threads").
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "broker" {
    BrokerOnly.serve(arguments[2])
} else {
    GatewayBench.main()
}
