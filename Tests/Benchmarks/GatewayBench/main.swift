import Foundation

// A synchronous entry point, so that `gateway-bench broker ENDPOINT` can run
// the broker with the main thread blocked in a plain wait. An async main ends
// in Dispatch's main loop (rt_sigsuspend), which valgrind 3.19 cannot run;
// this way the gateway's broker can be counted by callgrind like the
// reference broker (docs/BENCHMARKS.md). Everything else runs as usual, with
// Dispatch's main loop serving the main actor.
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "broker" {
    BrokerOnly.serve(arguments[2])
} else {
    Task.detached {
        await GatewayBench.main()
        exit(0)
    }
    dispatchMain()
}
