// swift-tools-version: 6.1
import PackageDescription

// One target per layer (see docs/ARCHITECTURE.md). The dependency rule is
// enforced here: ZeroMQ knows nothing of Majordomo, Majordomo nothing of JSON,
// and executables are the only composition roots.
// The transport (ZeroMQ, Majordomo) is built without run-time exclusivity
// checks in release builds only. Every message touches a dozen properties of
// its connection, router and broker, and each checked access costs about 100
// instructions: a tenth of the gateway's work per request (docs/BENCHMARKS.md,
// "Copies, checks and hashes"). Those checks only ever catch two overlapping
// accesses on one thread, a bug the tests would meet: debug builds, and so
// every test, keep them, and the compiler's build-time checks stay on.
let unchecked: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "posts",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gateway", targets: ["Gateway"]),
        .executable(name: "posts-service", targets: ["PostsService"]),
        .executable(name: "posts", targets: ["Client"]),
        .executable(name: "search-service", targets: ["SearchService"]),
        .executable(name: "echo-worker", targets: ["EchoWorker"]),
        .executable(name: "failover-client", targets: ["FailoverClient"]),
        .executable(name: "gateway-bench", targets: ["GatewayBench"]),
        .executable(name: "posts-http", targets: ["PostsHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // OTLP over HTTP only: the gRPC exporter (and its build) left out.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // The HTTP edge: Hummingbird, its types and routes generated from the
        // OpenAPI document at build time.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        // The edge's TLS, its connection handlers and its token hashes (all
        // three already built for postgres-nio and Hummingbird).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The HTTP edge's tests: a real HTTP client (already built for swift-otel's exporter).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ",
            path: "Shared/CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        // libsodium, for CURVE in our own ZMTP (ZMTP/Curve).
        .systemLibrary(
            name: "CSodium",
            path: "Shared/CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // zstd, for the search index's documents (DocumentText).
        .systemLibrary(
            name: "CZstd",
            path: "Shared/CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // Small things about the process that every layer below the
        // services uses: named threads, a log line's rate limit, the file
        // descriptor limit.
        .target(name: "SystemSupport", path: "Shared/SystemSupport"),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ", "CSodium", "SystemSupport"], path: "Shared/ZeroMQ", swiftSettings: unchecked),
        .target(
            name: "Majordomo",
            dependencies: [
                "ZeroMQ", "SystemSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Shared/Majordomo",
            swiftSettings: unchecked
        ),
        .target(
            name: "EventBus",
            dependencies: ["ZeroMQ", "SystemSupport", .product(name: "Logging", package: "swift-log")],
            path: "Shared/EventBus"
        ),
        .target(name: "Domain", path: "Shared/Domain"),
        // MVVM-C: view models and coordinators. Depends on Domain only (and on
        // stream and clock libraries), never on a platform or a view.
        .target(
            name: "Application",
            dependencies: [
                "Domain",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Shared/Application"
        ),
        // The format: JSON, the JSON-RPC envelope and its errors, the DTOs,
        // the messages, and each method declared once with the client's end.
        .target(name: "Wire", dependencies: ["Domain"], path: "Shared/Wire"),
        // `params._meta`'s trace context as swift-distributed-tracing's.
        .target(
            name: "WireTracing",
            dependencies: ["Wire", .product(name: "Tracing", package: "swift-distributed-tracing")],
            path: "Shared/WireTracing"
        ),
        // The service's side of the wire: the router (params, deadlines,
        // spans, metrics per method) and each method's handler.
        .target(
            name: "RPCServer",
            dependencies: [
                "Domain", "Wire", "WireTracing",
                .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/RPCServer"
        ),
        // The search engine: queries, postings ranked by bm25, phrases,
        // saved postings, snippets; words found by a `WordTokenizer` it is
        // given (FTS5's, in LocalPlatform). No storage of its own.
        .target(
            name: "Search",
            dependencies: ["Domain", "CZstd", "SystemSupport", .product(name: "HeapModule", package: "swift-collections")],
            path: "Shared/Search"
        ),
        // Domain's ports on a SQLite file: the posts, and the search index's file.
        .target(
            name: "LocalPlatform",
            dependencies: [
                "Domain", "Search", "Observability", "SystemSupport", "CZstd",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/LocalPlatform"
        ),
        // Domain's ports on PostgreSQL, for posts shared by several hosts.
        .target(
            name: "PostgresPlatform",
            dependencies: [
                "Domain", "Observability", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/PostgresPlatform"
        ),
        .target(
            name: "NetworkPlatform",
            dependencies: [
                "Domain", "Wire", "WireTracing", "Majordomo", "ZeroMQ", "EventBus", .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/NetworkPlatform"
        ),
        // Metrics served to Prometheus: swift-metrics, written out by
        // swift-prometheus, over a small HTTP endpoint on swift-nio.
        .target(
            name: "Observability",
            dependencies: [
                "Domain",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Shared/Observability"
        ),
        .target(
            name: "ServiceSupport",
            dependencies: [
                "Majordomo", "ZeroMQ", "SystemSupport", "Observability",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Shared/ServiceSupport"
        ),
        .executableTarget(
            name: "Gateway",
            dependencies: [
                "Domain", "Majordomo", "Wire", "WireTracing", "ZeroMQ", "SystemSupport", "ServiceSupport", "EventBus", "Observability",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Services/Gateway"
        ),
        .executableTarget(
            name: "PostsService",
            dependencies: [
                "Domain", "EventBus", "LocalPlatform", "PostgresPlatform", "Majordomo", "ServiceSupport", "Wire", "WireTracing", "RPCServer",
                "ZeroMQ", "Observability",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/PostsService"
        ),
        .executableTarget(
            name: "SearchService",
            dependencies: [
                "Domain", "EventBus", "LocalPlatform", "Majordomo", "NetworkPlatform", "ServiceSupport", "Wire", "WireTracing", "RPCServer",
                "ZeroMQ", "Observability",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/SearchService"
        ),
        .executableTarget(
            name: "Client",
            dependencies: [
                "Domain", "Application", "LocalPlatform", "NetworkPlatform", "ServiceSupport", "Wire", "ZeroMQ", "SystemSupport", "Observability",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Services/Client"
        ),
        // The HTTP edge: a delivery mechanism beside the CLI, Domain's use
        // cases over the gateway (NetworkPlatform), spec-first (openapi.json).
        .executableTarget(
            name: "PostsHTTP",
            dependencies: [
                "Domain", "NetworkPlatform", "ServiceSupport", "SystemSupport", "Wire", "Observability",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/PostsHTTP",
            resources: [.copy("openapi.json")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Test fixture: an MDP worker that echoes, used by integration tests and benchmarks.
        .executableTarget(
            name: "EchoWorker",
            dependencies: [
                "Majordomo", "Wire", "ServiceSupport", "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Fixtures/EchoWorker"
        ),
        // Test fixture: the failover checker's clients, recording a history.
        .executableTarget(
            name: "FailoverClient",
            dependencies: [
                "Domain", "NetworkPlatform", "ServiceSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Fixtures/FailoverClient"
        ),
        .executableTarget(
            name: "GatewayBench",
            dependencies: [
                "Majordomo", "ZeroMQ", "ServiceSupport", "LocalPlatform", "Search", "Domain", "Wire", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/Benchmarks/GatewayBench"
        ),
        // What the tests share (stubs, doubles, temporary directories,
        // waits that never block a cooperative thread); the benchmark too.
        .target(
            name: "TestSupport", dependencies: ["Domain", "SystemSupport", .product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"
        ),
        // Swift Testing traits (each test of a suite on a thread of its own).
        .target(name: "TestTraits", path: "Tests/TestTraits"),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ", "CSodium", "TestSupport", "TestTraits"], path: "Tests/ZeroMQTests"),
        .testTarget(
            name: "EventBusTests",
            dependencies: ["EventBus", "ZeroMQ", "TestSupport", "TestTraits", .product(name: "Logging", package: "swift-log")],
            path: "Tests/EventBusTests"
        ),
        .testTarget(
            name: "MajordomoTests",
            dependencies: ["Majordomo", "ZeroMQ", "SystemSupport", "TestSupport", "TestTraits", .product(name: "Logging", package: "swift-log")],
            path: "Tests/MajordomoTests"
        ),
        .testTarget(
            name: "WireTests", dependencies: ["Wire", "WireTracing", "RPCServer", "Domain", "TestSupport", "TestTraits"], path: "Tests/WireTests"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport", "TestTraits"], path: "Tests/DomainTests"),
        .testTarget(
            name: "ApplicationTests",
            dependencies: [
                "Application", "Domain", "TestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ApplicationTests"
        ),
        .testTarget(name: "ClientTests", dependencies: ["Client", "Domain", "TestSupport", "TestTraits"], path: "Tests/ClientTests"),
        .testTarget(
            name: "LocalPlatformTests",
            dependencies: [
                "LocalPlatform", "Search", "Domain", "SystemSupport", "TestSupport", "TestTraits", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/LocalPlatformTests"
        ),
        .testTarget(name: "SearchTests", dependencies: ["Search", "Domain", "TestSupport", "TestTraits"], path: "Tests/SearchTests"),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "PostsService", "SearchService", "Domain", "Wire", "RPCServer", "LocalPlatform", "ZeroMQ", "TestSupport", "TestTraits",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServiceTests"
        ),
        .testTarget(
            name: "ServiceSupportTests",
            dependencies: [
                "ServiceSupport", "ZeroMQ", "Observability", "TestSupport", "TestTraits",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServiceSupportTests"
        ),
        .testTarget(
            name: "PostgresPlatformTests", dependencies: ["PostgresPlatform", "TestSupport", "TestTraits"], path: "Tests/PostgresPlatformTests"),
        .testTarget(
            name: "GatewayTests",
            dependencies: ["Gateway", "Majordomo", "Wire", "Domain", "ZeroMQ", "ServiceSupport", "TestSupport", "TestTraits"],
            path: "Tests/GatewayTests"
        ),
        .testTarget(
            name: "NetworkPlatformTests",
            dependencies: ["NetworkPlatform", "Majordomo", "Wire", "Domain", "ZeroMQ", "TestSupport", "TestTraits"],
            path: "Tests/NetworkPlatformTests"
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Majordomo", "Wire", "ZeroMQ", "ServiceSupport", "Domain", "EventBus", "LocalPlatform", "NetworkPlatform", "PostgresPlatform",
                "TestSupport", "TestTraits", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/IntegrationTests",
            // The property-based tester's settings, read by schemathesis, not built.
            exclude: ["HTTP/schemathesis.toml"]
        ),
    ]
)
