// swift-tools-version: 6.0
import PackageDescription

// One target per layer (see docs/ARCHITECTURE.md). The dependency rule is
// enforced here: ZeroMQ knows nothing of Majordomo, Majordomo nothing of JSON,
// and executables are the only composition roots.
let package = Package(
    name: "posts",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gateway", targets: ["Gateway"]),
        .executable(name: "echo-worker", targets: ["EchoWorker"]),
        .executable(name: "gateway-bench", targets: ["GatewayBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ",
            path: "Shared/CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], path: "Shared/ZeroMQ"),
        .target(
            name: "Majordomo",
            dependencies: [
                "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Shared/Majordomo"
        ),
        .target(name: "Wire", path: "Shared/Wire"),
        .target(
            name: "ServiceSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Shared/ServiceSupport"
        ),
        .executableTarget(
            name: "Gateway",
            dependencies: [
                "Majordomo", "Wire", "ZeroMQ", "ServiceSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/Gateway"
        ),
        // Test fixture: an MDP worker that echoes, used by integration tests and benchmarks.
        .executableTarget(
            name: "EchoWorker",
            dependencies: [
                "Majordomo", "Wire", "ServiceSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Fixtures/EchoWorker"
        ),
        .executableTarget(
            name: "GatewayBench",
            dependencies: [
                "Majordomo", "ZeroMQ", "ServiceSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Benchmarks/GatewayBench"
        ),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], path: "Tests/ZeroMQTests"),
        .testTarget(
            name: "MajordomoTests",
            dependencies: ["Majordomo", "ZeroMQ", .product(name: "Logging", package: "swift-log")],
            path: "Tests/MajordomoTests"
        ),
        .testTarget(name: "WireTests", dependencies: ["Wire"], path: "Tests/WireTests"),
        .testTarget(name: "ServiceSupportTests", dependencies: ["ServiceSupport"], path: "Tests/ServiceSupportTests"),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Majordomo", "Wire", "ZeroMQ", "ServiceSupport"],
            path: "Tests/IntegrationTests"
        ),
    ]
)
